import { useAskToMessage } from '../signIn/useAskToMessage';
import { useSingleFlight } from '../../ui/useSingleFlight';
import { useFormat } from '../../lib/format';
import { useEffect, useState, type FormEvent } from 'react';
import { useParams } from 'wouter';
import { useTranslation } from '../../lib/translator';
import { useBalancesChanged } from '../../lib/balances';
import { openLink } from '../../lib/telegramLinks';
import { shareToStory } from '../../lib/telegramShare';
import { addAppToHomeScreen, homeScreenStatus, newerTelegramNeeded, setEmojiStatus } from '../../lib/telegramMissions';
import { appErrorOf } from '../../lib/trpc';
import { trpc, type RouterOutputs } from '../../lib/trpc';
import { useNow } from '../../ui/countdown';
import { ErrorMessage } from '../../ui/ErrorMessage';
import { TasksIcon } from '../../ui/icons';
import { TextField } from '../../ui/fields';
import { NotFoundNotice } from '../../ui/NotFoundNotice';
import { PageHeader } from '../../ui/PageHeader';
import { useToast } from '../../ui/toast';
import { isObjectId } from '../categories/CategoryMissionsPage';
import { Skeleton } from '../../ui/Skeleton';
import { EndsIn } from './EndsIn';
import { MissionReward, MissionTitle } from './MissionRowText';
import { EMPTY_PROOF, proofComplete, ProofFields, type Proof } from './ProofFields';
import './locales';

type Mission = RouterOutputs['missions']['byCategory']['missions'][number];

/** Go, the wait or the code the check needs, and Claim, for every verify type. */
function MissionActions({ mission }: { mission: Mission }) {
  const { t } = useTranslation();
  const format = useFormat();
  const toast = useToast();
  const balancesChanged = useBalancesChanged();
  const utils = trpc.useUtils();
  const [code, setCode] = useState('');
  const [proof, setProof] = useState<Proof>(EMPTY_PROOF);
  const [uploading, setUploading] = useState(false);
  const flight = useSingleFlight();
  const askToMessage = useAskToMessage();
  const go = trpc.missions.go.useMutation({ onSettled: () => utils.missions.byCategory.invalidate({ categoryId: mission.categoryId }) });
  const claim = trpc.missions.claim.useMutation({
    onSuccess: async (result) => {
      toast(
        result.status === 'pending'
          ? t('mission.sentForReview')
          : t('mission.credited', { reward: result.reward, symbol: mission.coin.symbol }),
        'success',
      );
      if (result.status !== 'pending') askToMessage();
      await balancesChanged();
    },
    // a refusal is said once, under the buttons it answers (ErrorMessage below), not again in a toast over the title
  });
  const claimableAt = mission.claimableAt ? new Date(mission.claimableAt).getTime() : null;
  const now = useNow(claimableAt !== null);
  const waiting = claimableAt !== null && claimableAt > now;

  if (mission.status === 'done') {
    return (
      <p className="notice" role="status">
        {t(mission.repeat === 'daily' ? 'mission.doneToday' : 'mission.done', { reward: mission.reward, symbol: mission.coin.symbol })}
      </p>
    );
  }
  if (mission.status === 'pending')
    return (
      <p className="notice" role="status">
        {t('mission.pending')}
      </p>
    );

  if (mission.full)
    return (
      <p className="notice" role="status">
        {t('mission.full')}
      </p>
    );

  // a Telegram too old for what the mission asks (or no Telegram at all) is told so, rather than failing on Go
  const newerTelegram = newerTelegramNeeded(mission.verifyType);
  if (newerTelegram)
    return (
      <p className="notice" role="status">
        {t('mission.needsNewerTelegram', { version: format.amount(newerTelegram) })}
      </p>
    );

  const start = () => go.mutate({ missionId: mission.id });
  const onGo = () => {
    if (mission.verifyType === 'homeScreen') {
      // started once the player's Telegram says the shortcut is there (already, or added now)
      void homeScreenStatus().then(async (status) => (status === 'added' || (await addAppToHomeScreen()) === 'added') && start());
      return;
    }
    if (mission.verifyType === 'emojiStatus') void setEmojiStatus(mission.emojiId);
    else if (mission.story) shareToStory(new URL(mission.story.media, window.location.href).href, mission.story.text);
    // opened in the tap itself, so no browser blocks it; the start is recorded beside it
    else if (mission.link) openLink(mission.link);
    start();
  };
  const onClaim = (event: FormEvent) => {
    event.preventDefault();
    flight.run((done) => {
      // a Home screen claim carries what the player's Telegram says now: the server cannot see a home screen
      const homeScreen = mission.verifyType === 'homeScreen' ? homeScreenStatus() : Promise.resolve(undefined);
      void homeScreen.then((status) =>
        claim.mutate(
          {
            missionId: mission.id,
            ...(mission.verifyType === 'youtube' ? { code } : {}),
            ...(status ? { homeScreen: status } : {}),
            ...(mission.proof.length ? { proof: { link: proof.link.trim(), text: proof.text.trim(), imageId: proof.imageId } } : {}),
          },
          { onSettled: done },
        ),
      );
    });
  };
  // Telegram's failure to answer a boost or emoji status check is said without the join check's words
  const checkFailed = appErrorOf(claim.error)?.code === 'TELEGRAM_CHECK_FAILED' && mission.verifyType !== 'telegram';
  const canGo = mission.verifyType !== 'auto' || !!mission.link;

  return (
    <form className="card menu" onSubmit={onClaim}>
      {mission.status === 'rejected' && (
        <p className="error-text" role="status">
          {mission.rejectReason
            ? t('mission.rejected', { reason: mission.rejectReason })
            : t('mission.rejectedNoReason', { go: mission.goButton })}
          {mission.rejectReason && <> {t('mission.tryAgain', { go: mission.goButton })}</>}
        </p>
      )}
      {mission.verifyType === 'youtube' && mission.status === 'started' && (
        <TextField
          label={t('mission.code')}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          autoComplete="off"
          maxLength={64}
          required
        />
      )}
      {mission.status === 'started' && <ProofFields kinds={mission.proof} proof={proof} onChange={setProof} onUploading={setUploading} />}
      {waiting && (
        <p className="muted" role="timer">
          {t('mission.claimIn', { time: format.countdown(claimableAt - now) })}
        </p>
      )}
      <div className="actions">
        {canGo && (
          <button
            type="button"
            className={mission.status === 'started' ? 'button button-ghost' : 'button'}
            onClick={onGo}
            disabled={go.isPending}
          >
            {mission.goButton}
          </button>
        )}
        {(mission.status === 'started' || mission.verifyType === 'auto') && (
          <button
            type="submit"
            className="button"
            disabled={flight.busy || waiting || uploading || (mission.status === 'started' && !proofComplete(mission.proof, proof))}
          >
            {mission.claimButton}
          </button>
        )}
      </div>
      {claim.error &&
        (checkFailed ? (
          <p className="error-text" role="alert">
            {t('mission.telegramCheckFailed')}
          </p>
        ) : (
          <ErrorMessage error={claim.error} />
        ))}
      {go.error && <ErrorMessage error={go.error} />}
    </form>
  );
}

/** The missions whose first open this visit already told the server (which records it once in any case). */
const toldOpened = new Set<string>();

/** Tells the server, once, that the player opened a mission they have not started: the first step of its funnel. */
function useFirstOpen(missionId: string | null) {
  const { mutate } = trpc.missions.open.useMutation();
  useEffect(() => {
    if (!missionId || toldOpened.has(missionId)) return;
    toldOpened.add(missionId);
    mutate({ missionId });
  }, [missionId, mutate]);
}

/** One mission: its picture (or an icon), description, reward with its coin, and what its check needs. */
export function MissionView({ categoryId, missionId, backTo }: { categoryId: string; missionId: string; backTo: string }) {
  const { t } = useTranslation();
  const valid = isObjectId(categoryId) && isObjectId(missionId);
  const query = trpc.missions.byCategory.useQuery({ categoryId }, { enabled: valid });
  const mission = query.data?.missions.find((m) => m.id === missionId);
  useFirstOpen(mission?.status === 'not_started' ? mission.id : null);

  if (!valid || (query.data && !mission) || (query.error && query.error.data?.httpStatus === 404)) {
    return <NotFoundNotice title={t('mission.title')} text={t('mission.notFound')} backTo={backTo} />;
  }
  return (
    <section className="page">
      <PageHeader title={query.data?.category.title ?? t('mission.title')} backTo={backTo} />
      {query.isPending && <Skeleton shape="card" />}
      {query.error && <ErrorMessage error={query.error} />}
      {mission && (
        <>
          <div className="card mission-head">
            {mission.image ? (
              <img src={mission.image} alt="" />
            ) : (
              <div className="mission-icon" aria-hidden="true">
                <TasksIcon />
              </div>
            )}
            <div className="grow">
              <h2 className="title">
                <MissionTitle mission={mission} />
              </h2>
              <div className="reward">
                <span className="muted">{t('mission.reward')}</span> <MissionReward mission={mission} />
              </div>
              {mission.repeat === 'daily' && <span className="badge">{t('mission.daily')}</span>} <EndsIn endsAt={mission.endsAt} />
            </div>
          </div>
          {mission.description && (
            <p className="description">
              <bdi>{mission.description}</bdi>
            </p>
          )}
          <p className="muted">
            {t(`mission.needs.${mission.verifyType}`, {
              minutes: mission.verifyDuration,
              go: mission.goButton,
              claim: mission.claimButton,
            })}
          </p>
          <MissionActions mission={mission} />
        </>
      )}
    </section>
  );
}

/** /categories/:id/missions/:missionId/get */
export function CategoryMissionPage() {
  const { id = '', missionId = '' } = useParams();
  return <MissionView categoryId={id} missionId={missionId} backTo={`/categories/${id}/missions`} />;
}

/**
 * Home's tasks/:taskId: a mission opened from home. Its category comes from home's ⭐ list, or, for a
 * mission no longer listed there (done, or not a ⭐ one), from the categories' mission lists.
 */
export function HomeTaskPage() {
  const { t } = useTranslation();
  const { taskId = '' } = useParams();
  const home = trpc.home.get.useQuery();
  const [categoryId, setCategoryId] = useState<string | null>(null);
  const starCategory = [...(home.data?.starMissions ?? []), ...(home.data?.daily ?? [])].find((m) => m.id === taskId)?.categoryId;
  const searchCategories = !!home.data && !starCategory && !categoryId && isObjectId(taskId);
  const lists = trpc.useQueries((q) =>
    searchCategories ? home.data.categories.map((c) => q.missions.byCategory({ categoryId: c.id })) : [],
  );
  const listedCategory = lists.find((list) => list.data?.missions.some((m) => m.id === taskId))?.data?.category.id;
  const found = starCategory ?? listedCategory;
  if (found && found !== categoryId) setCategoryId(found);
  const known = categoryId ?? found;
  if (known) return <MissionView categoryId={known} missionId={taskId} backTo="/" />;
  const searched = !!home.data && (!searchCategories || lists.every((list) => !list.isPending));
  if (searched) return <MissionView categoryId="" missionId={taskId} backTo="/" />;
  return (
    <section className="page">
      <PageHeader title={t('mission.title')} backTo="/" />
      {home.error ? <ErrorMessage error={home.error} /> : <Skeleton shape="card" />}
    </section>
  );
}
