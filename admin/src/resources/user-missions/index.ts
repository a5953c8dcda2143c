import { createElement } from 'react';
import { RecordLabel, shortId } from '../../lists/RecordLabel';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import { UserMissionEdit } from './UserMissionEdit';
import { UserMissionList } from './UserMissionList';

export default {
  list: UserMissionList,
  edit: UserMissionEdit,
  icon: FactCheckIcon,
  recordRepresentation: createElement(RecordLabel, { message: 'records.userMission', args: shortId }),
};
