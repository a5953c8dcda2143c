import { createElement } from 'react';
import { RecordLabel } from '../../lists/RecordLabel';
import SettingsIcon from '@mui/icons-material/Settings';
import { AppConfigEdit } from './AppConfigEdit';

/** A singleton: its "list" route is the one form. */
export default {
  list: AppConfigEdit,
  icon: SettingsIcon,
  recordRepresentation: createElement(RecordLabel, { message: 'appConfig.title' }),
};
