import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../lib/translator';
import { APPEAL_MAX, APPEAL_MIN } from '@gift/shared/constants';
import { useFormat } from '../../lib/format';
import { trpc } from '../../lib/trpc';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { TextAreaField } from '../../ui/fields';
import { Skeleton } from '../../ui/Skeleton';
import './locales';

/** The operators' questions and answers, and where to write to them. */
export function HelpContent() {
  const { t } = useTranslation();
  const help = trpc.help.get.useQuery();
  if (help.error) return <ErrorMessage error={help.error} />;
  if (!help.data) return <Skeleton shape="card" />;
  return (
    <section className="card menu help" aria-labelledby="help-faq">
      <h2 id="help-faq">{t('help.faq')}</h2>
      {help.data.faqs.length === 0 && <p className="muted">{t('help.noFaq')}</p>}
      {help.data.faqs.map((faq) => (
        <details key={faq.id}>
          <summary>{faq.question}</summary>
          <p className="description">{faq.answer}</p>
        </details>
      ))}
      {help.data.contact && (
        <a className="button button-ghost" href={help.data.contact} target="_blank" rel="noreferrer">
          {t('help.contact')}
        </a>
      )}
    </section>
  );
}

/**
 * A banned or frozen player's one appeal against the decision: the form until it is sent, then what became of it (waiting, or
 * the operator's answer, which the bot sends too).
 */
export function AppealPanel() {
  const { t } = useTranslation();
  const format = useFormat();
  const utils = trpc.useUtils();
  const appeal = trpc.help.appeal.useQuery();
  const [text, setText] = useState('');
  const [tooShort, setTooShort] = useState(false);
  const send = trpc.help.sendAppeal.useMutation({ onSuccess: (sent) => utils.help.appeal.setData(undefined, sent) });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim().length < APPEAL_MIN) {
      setTooShort(true);
      return;
    }
    if (!send.isPending) send.mutate({ text: text.trim() });
  };

  if (appeal.error) return <ErrorMessage error={appeal.error} />;
  if (appeal.isPending) return <Skeleton shape="card" />;
  const sent = appeal.data;
  return (
    <section className="card menu" aria-labelledby="appeal-title">
      <h2 id="appeal-title">{t('help.appealTitle')}</h2>
      {sent ? (
        <>
          <p className="muted" data-testid="appeal-sent">
            {t('help.sentOn', { date: sent.sentAt ? format.dateTime(sent.sentAt) : '' })}
          </p>
          <blockquote className="description">{sent.text}</blockquote>
          {sent.status === 'answered' ? (
            <div role="status" className="appeal-answer" data-testid="appeal-answer">
              <h3>{t('help.answer')}</h3>
              <p className="description">{sent.answer}</p>
            </div>
          ) : (
            <p role="status">{t('help.waiting')}</p>
          )}
        </>
      ) : (
        <form className="menu" onSubmit={onSubmit} noValidate>
          <p>{t('help.appealIntro')}</p>
          <TextAreaField
            label={t('help.appealLabel')}
            hint={t('help.appealHint', { min: APPEAL_MIN, max: APPEAL_MAX })}
            error={tooShort && text.trim().length < APPEAL_MIN ? t('help.tooShort', { min: APPEAL_MIN }) : undefined}
            value={text}
            maxLength={APPEAL_MAX}
            rows={5}
            onChange={(event) => setText(event.target.value)}
          />
          <button type="submit" className="button" disabled={send.isPending}>
            {t('help.send')}
          </button>
          {send.error && <ErrorMessage error={send.error} />}
        </form>
      )}
    </section>
  );
}
