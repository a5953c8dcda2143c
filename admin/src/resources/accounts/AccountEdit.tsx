import { Edit } from 'react-admin';
import { EditActions } from '../sharedInputs';
import { AccountAccess } from './AccountAccess';
import { AccountForm } from './AccountForm';
import { Sessions } from './Sessions';
import { SignInHistory } from './SignInHistory';
import { TwoStepReset } from './TwoStepReset';

export function AccountEdit() {
  return (
    <Edit
      mutationMode="pessimistic"
      actions={<EditActions />}
      aside={<AccountAccess />}
      // on a phone the record's access goes below the form, not beside it past the screen's edge
      sx={{ '& .RaEdit-main': { flexDirection: { xs: 'column', md: 'row' } } }}
    >
      <AccountForm editing />
      <TwoStepReset />
      <Sessions />
      <SignInHistory />
    </Edit>
  );
}
