import AssignmentIcon from '@mui/icons-material/Assignment';
import { MissionCreate } from './MissionCreate';
import { MissionEdit } from './MissionEdit';
import { MissionList } from './MissionList';

export default {
  list: MissionList,
  edit: MissionEdit,
  create: MissionCreate,
  icon: AssignmentIcon,
  recordRepresentation: 'title',
};
