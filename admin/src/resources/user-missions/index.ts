import FactCheckIcon from '@mui/icons-material/FactCheck';
import { UserMissionEdit } from './UserMissionEdit';
import { UserMissionList } from './UserMissionList';

export default {
  list: UserMissionList,
  edit: UserMissionEdit,
  icon: FactCheckIcon,
  recordRepresentation: (record: { id?: string }) => `User mission ${String(record.id ?? '').slice(-6)}`,
};
