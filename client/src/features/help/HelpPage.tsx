import { useTranslation } from '../../lib/translator';
import { PageHeader } from '../../ui/PageHeader';
import { useSession } from '../signIn/PlayerSession';
import { AppealPanel, HelpContent } from './HelpPanels';
import './locales';

/** Help: the appeal for a frozen player first, then the questions and the contact. */
export function HelpPage() {
  const { t } = useTranslation();
  const { player } = useSession();
  return (
    <section className="page">
      <PageHeader title={t('help.title')} backTo="/profile" />
      {player.status === 'frozen' && <AppealPanel />}
      <HelpContent />
    </section>
  );
}
