import SettingsIcon from '@mui/icons-material/Settings';
import { AppConfigEdit } from './AppConfigEdit';

/** A singleton: its "list" route is the one form. */
export default {
  list: AppConfigEdit,
  icon: SettingsIcon,
  recordRepresentation: () => 'App Config',
};
