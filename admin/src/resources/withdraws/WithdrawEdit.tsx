import { Edit, FunctionField, ReferenceField, SelectField, TextField, TextInput, useRecordContext, useTranslate } from 'react-admin';
import { ConsoleDateField } from '../../lists/ConsoleDateField';
import { Alert, AlertTitle, Link as MuiLink } from '@mui/material';
import { withdrawalReviewInput } from '@gift/shared';
import type { WithdrawRecord } from '@gift/server';
import { EditActions } from '../sharedInputs';
import { DecisionOrRecord } from '../decisionForm';
import { CHAIN_STATE_CHOICES, WITHDRAWAL_STATUS_CHOICES } from './statuses';
import { confirmWithdrawDecision } from './confirmDecision';
import { PlayerBesideDecision } from './PlayerBesideDecision';

const DECISIONS = [
  { id: 'approved', name: 'withdraws.decisions.approved' },
  { id: 'done', name: 'withdraws.decisions.done' },
  { id: 'rejected', name: 'withdraws.decisions.rejected' },
];

const wrap = { wordBreak: 'break-all' } as const;

/** The transaction's page on the explorer, once the chain has one. */
/** Who settled it: the operator, or the hot wallet for a payout it sent and the chain confirmed. */
function ProcessedBy(_props: { label: string }) {
  const translate = useTranslate();
  return (
    <FunctionField<WithdrawRecord>
      source="processedByName"
      render={(r) => r.processedByName || (r.status === 'done' && r.chainState === 'confirmed' ? translate('withdraws.byHotWallet') : '—')}
    />
  );
}

function ExplorerLink(_props: { source: string }) {
  const translate = useTranslate();
  return (
    <FunctionField<WithdrawRecord>
      source="explorerUrl"
      render={(r) =>
        r.explorerUrl ? (
          <MuiLink href={r.explorerUrl} target="_blank" rel="noreferrer">
            {translate('withdraws.explorer')}
          </MuiLink>
        ) : (
          '—'
        )
      }
    />
  );
}

/** An automated payout that did not arrive (it bounced or failed on chain) and came back to the operators: why, and what to do. */
function BouncedPayout() {
  const translate = useTranslate();
  const record = useRecordContext<WithdrawRecord>();
  if (record?.status !== 'pending' || record.chainState !== 'bounced') return null;
  return (
    <Alert severity="warning" role="alert" data-testid="withdrawal-bounced" sx={{ m: 2, mb: 0 }}>
      <AlertTitle>{translate('withdraws.bouncedTitle')}</AlertTitle>
      <div dir="ltr" style={{ wordBreak: 'break-word' }}>
        {record.chainNote}
      </div>
      <div>{translate('withdraws.bouncedHelp')}</div>
    </Alert>
  );
}

/**
 * Settling a withdraw: approved for the hot wallet, done with its (checked) transaction hash, or rejected with a reason. An
 * approved one may still be paid by hand or rejected until the hot wallet takes it into a batch; a processed one is shown as
 * it was settled.
 */
export function WithdrawEdit() {
  return (
    <Edit mutationMode="pessimistic" redirect={() => 'withdraw'} actions={<EditActions list={false} />}>
      <BouncedPayout />
      <PlayerBesideDecision />
      <DecisionOrRecord<WithdrawRecord>
        open={(r) => r.status === 'pending' || r.status === 'approved'}
        facts={[
          <ReferenceField key="user" source="user" reference="users" link="show" />,
          <FunctionField<WithdrawRecord> key="amount" source="amount" render={(r) => `${r.amount} ${r.coinSymbol ?? ''}`.trim()} />,
          <TextField key="address" source="address" sx={wrap} />,
          <SelectField key="status" source="status" choices={WITHDRAWAL_STATUS_CHOICES} />,
          <ConsoleDateField key="createdAt" source="createdAt" showTime />,
        ]}
        settled={[
          <SelectField key="chainState" source="chainState" choices={CHAIN_STATE_CHOICES} emptyText="—" />,
          <TextField key="txHash" source="txHash" emptyText="—" sx={wrap} />,
          <ExplorerLink key="explorer" source="explorerUrl" />,
          <TextField key="rejectReason" source="rejectReason" emptyText="—" />,
          <ConsoleDateField key="processedAt" source="processedAt" showTime emptyText="—" />,
          <ProcessedBy key="processedBy" label="resources.withdraws.fields.processedBy" />,
        ]}
        waiting={[
          <SelectField key="chainState" source="chainState" choices={CHAIN_STATE_CHOICES} emptyText="—" />,
          <TextField key="chainNote" source="chainNote" emptyText="—" sx={wrap} />,
        ]}
        schema={withdrawalReviewInput}
        label="withdraws.decision"
        decisions={DECISIONS}
        confirmFor={confirmWithdrawDecision}
        inputsFor={(status) =>
          status === 'done' ? (
            <TextInput source="txHash" fullWidth />
          ) : status === 'rejected' ? (
            <TextInput source="rejectReason" multiline fullWidth />
          ) : null
        }
      />
    </Edit>
  );
}
