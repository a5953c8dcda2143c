import HistoryIcon from '@mui/icons-material/History';
import { AuditList } from './AuditList';

export default {
  list: AuditList,
  icon: HistoryIcon,
  recordRepresentation: (record: { action?: string; resource?: string }) => `${record.action ?? ''} ${record.resource ?? ''}`,
};
