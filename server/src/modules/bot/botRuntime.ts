import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { RequestHandler } from 'express';
import { BotError, webhookCallback, type Api, type Bot, type Context } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import type { Env } from '../../env';
import type { Logger } from '../../lib/logger';
import { pacedApi, toBotApiError } from '../../lib/telegramBot';
import { getAppConfig, resolveBotToken, setAppConfigFields } from '../config/config.service';
import { NotificationSender, reportNotificationProblemsTo } from '../notifications/notifications.service';
import { AlertSweeper } from '../alerts/alerts.service';
import { BroadcastSender } from '../broadcasts/broadcastSender.service';
import {
  createBot,
  openAppUrl,
  paymentUnrecorded,
  PaymentNotRecorded,
  registerCommands,
  registerMenuButton,
  webhookSecretToken,
} from './bot.service';
import { DEFAULT_LEASE_MS, holdLease, releaseLease } from '../jobs/jobLease.service';

/** The fixed webhook path; Telegram proves itself with the secret token header, not the path. */
export const WEBHOOK_PATH = '/telegram/webhook';
/** How often an instance re-reads the token (and registers the webhook); its leases are asked for far more often. */
const SUPERVISE_MS = 15_000;
const POLLER_LEASE = 'bot-poller';
/** How soon the long poll starts again after a payment it could not record (see startPolling). */
const POLL_AGAIN_MS = 1_000;
const SENDER_LEASE = 'notification-sender';

export interface BotRuntimeOptions {
  env: Env;
  logger: Logger;
  /** Tests pass what getMe answers; in production the runtime asks Telegram. */
  botInfo?: UserFromGetMe;
  clock?: () => Date;
  /** This instance, as leases name it. */
  holder?: string;
}

/**
 * The bot as the server runs it. With PUBLIC_URL it registers its webhook (every instance may take
 * updates); without, it long-polls, and a lease in MongoDB lets only one instance poll. Another lease
 * picks the one instance that sends notifications, so Telegram's limits hold across instances.
 * The token is re-read on every round, so a token saved in App Config takes effect without a restart.
 */
export class BotRuntime {
  readonly holder: string;
  private token: string | undefined;
  private bot: Bot | null = null;
  private paced: Api | null = null;
  private webhook: RequestHandler | null = null;
  private webhookRegistered = false;
  private polling: Promise<void> | null = null;
  private timer: NodeJS.Timeout | undefined;
  private leaseTimer: NodeJS.Timeout | undefined;
  /** Until when (this instance's clock) each lease counts as ours: two thirds of a lease after the renewal was asked. */
  private readonly heldUntil = new Map<string, number>();
  private stopped = false;
  private round: Promise<void> = Promise.resolve();
  private readonly clock: () => Date;
  readonly sender: NotificationSender;
  /** Sends broadcasts on every instance: their pace is shared through the database. */
  readonly broadcasts: BroadcastSender;
  /** Operators' alerts, swept and sent by the instance holding the sender's lease (each is queued once by its key anyway). */
  readonly alerts: AlertSweeper;

  constructor(private readonly options: BotRuntimeOptions) {
    this.clock = options.clock ?? (() => new Date());
    this.holder = options.holder ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    reportNotificationProblemsTo(options.logger);
    this.sender = new NotificationSender({
      api: () => this.paced,
      openAppUrl: (startParam) => openAppUrl(this.bot?.botInfo.username, startParam),
      holder: this.holder,
      logger: options.logger,
      clock: this.clock,
    });
    this.alerts = new AlertSweeper({ api: () => this.paced, holder: this.holder, logger: options.logger, clock: this.clock });
    this.broadcasts = new BroadcastSender({
      api: () => this.paced,
      links: { publicUrl: options.env.PUBLIC_URL, openAppUrl: () => openAppUrl(this.bot?.botInfo.username) },
      rate: options.env.BROADCAST_RATE,
      sendingLeaseMs: options.env.BROADCAST_LEASE_MS,
      holder: this.holder,
      logger: options.logger,
      clock: this.clock,
    });
  }

  get mode(): 'webhook' | 'polling' {
    return this.options.env.PUBLIC_URL ? 'webhook' : 'polling';
  }

  /** Whether this instance is long-polling Telegram now. */
  get isPolling(): boolean {
    return this.polling !== null;
  }

  /** How long the poller's and the sender's leases last unless renewed (LEASE_TTL_MS); asked for every third of it. */
  private get leaseMs(): number {
    return this.options.env.LEASE_TTL_MS ?? DEFAULT_LEASE_MS;
  }

  /**
   * Starts the rounds: the first one now, then every SUPERVISE_MS; between them the leases are renewed (or taken
   * over from an instance that died) every third of a lease.
   */
  async start(): Promise<void> {
    this.stopped = false;
    await this.supervise();
    const tick = () => {
      if (this.stopped) return;
      this.timer = setTimeout(() => void this.supervise().finally(tick), SUPERVISE_MS);
      this.timer.unref();
    };
    tick();
    const renew = () => {
      if (this.stopped) return;
      this.leaseTimer = setTimeout(() => void this.renewLeases().finally(renew), this.leaseMs / 3);
      this.leaseTimer.unref();
    };
    renew();
  }

  /** One round, never two at once: follow the token, then hold or give up the leases. */
  supervise(): Promise<void> {
    if (this.stopped) return this.round;
    this.round = this.round
      .then(() => this.followToken().then(() => this.holdRoles()))
      .catch((error) => {
        this.options.logger.warn({ err: toBotApiError(error, 'setup') }, 'bot round failed');
      });
    return this.round;
  }

  /** A lease round between two supervising ones: renews (or takes over) the poller's and the sender's leases. */
  private renewLeases(): Promise<void> {
    if (this.stopped) return this.round;
    this.round = this.round
      .then(() => this.holdLeases())
      .catch((error) => {
        this.options.logger.warn({ err: error }, 'bot lease round failed');
      });
    return this.round;
  }

  /**
   * Asks for the lease: true while this instance holds it. A renewal the database could not answer keeps what was
   * held until two thirds of the lease have passed since the last renewal was asked, a third before another instance
   * can take it; then this instance stops the role itself.
   */
  private async lease(name: string): Promise<boolean> {
    const asked = this.clock();
    try {
      const mine = await holdLease(name, this.holder, asked, this.leaseMs);
      this.heldUntil.set(name, mine ? asked.getTime() + (2 * this.leaseMs) / 3 : 0);
    } catch (error) {
      this.options.logger.warn({ err: error, lease: name }, 'bot lease not renewed');
    }
    return this.clock().getTime() < (this.heldUntil.get(name) ?? 0);
  }

  private async followToken(): Promise<void> {
    const token = await resolveBotToken(this.options.env);
    if (token === this.token && (this.bot || !token)) return;
    await this.teardown();
    if (!token) return;
    const { env, logger, botInfo, clock } = this.options;
    const bot = createBot(token, { env, logger, botInfo, clock });
    await bot.init();
    // the links the app and the bot give out name the bot that runs, whichever token runs it
    const config = await getAppConfig();
    if (config.botUsername !== bot.botInfo.username) await setAppConfigFields({ botUsername: bot.botInfo.username });
    this.token = token;
    this.bot = bot;
    this.paced = pacedApi({ apiRoot: env.TELEGRAM_API_ROOT, token });
    // the chat's extras are conveniences: a refusal of one must not keep the bot from answering
    await registerCommands(bot).catch((error) => logger.warn({ err: toBotApiError(error, 'setMyCommands') }, 'bot commands not set'));
    if (env.PUBLIC_URL) {
      await registerMenuButton(bot, env.PUBLIC_URL).catch((error) =>
        logger.warn({ err: toBotApiError(error, 'setChatMenuButton') }, 'menu button not set'),
      );
      this.webhook = webhookCallback(bot, 'express', { secretToken: webhookSecretToken(token, env.JWT_SECRET) });
    }
  }

  /** Tells Telegram where to deliver updates; a refusal (Telegram down, not https) is tried again next round. */
  private async registerWebhook(bot: Bot, token: string, publicUrl: string): Promise<void> {
    const url = `${publicUrl}${WEBHOOK_PATH}`;
    await bot.api.setWebhook(url, {
      secret_token: webhookSecretToken(token, this.options.env.JWT_SECRET),
      allowed_updates: ['message', 'pre_checkout_query'],
    });
    this.webhookRegistered = true;
    this.options.logger.info({ url }, 'bot webhook registered');
  }

  private async holdRoles(): Promise<void> {
    const bot = this.bot;
    if (!bot) return;
    const { PUBLIC_URL } = this.options.env;
    if (PUBLIC_URL && !this.webhookRegistered) {
      await this.registerWebhook(bot, this.token!, PUBLIC_URL).catch((error) =>
        this.options.logger.warn({ err: toBotApiError(error, 'setWebhook') }, 'bot webhook not registered yet'),
      );
    }
    await this.holdLeases();
    this.broadcasts.start();
  }

  /** Polls and sends exactly while this instance holds the leases. */
  private async holdLeases(): Promise<void> {
    const bot = this.bot;
    if (!bot || this.stopped) return;
    if (this.mode === 'polling') {
      const mine = await this.lease(POLLER_LEASE);
      if (mine && !this.polling) this.startPolling(bot);
      if (!mine && this.polling) await this.stopPolling();
    }
    if (await this.lease(SENDER_LEASE)) {
      this.sender.start();
      this.alerts.start();
    } else {
      this.sender.stop();
      this.alerts.stop();
    }
  }

  private startPolling(bot: Bot): void {
    const { logger } = this.options;
    // bot.start deletes any webhook first, then long-polls until stopped
    let again = false;
    this.polling = bot
      .start({ allowed_updates: ['message', 'pre_checkout_query'], onStart: (me) => logger.info({ bot: me.username }, 'bot long polling') })
      .catch((error) => {
        if (!(error instanceof PaymentNotRecorded))
          return logger.warn({ err: toBotApiError(error, 'getUpdates') }, 'bot long polling stopped');
        // Telegram keeps the payment until a poll asks past it, and this bot would ask past it: a bot made afresh polls from
        // the first update not confirmed, a moment later (a payment that keeps failing holds the poll: it is never skipped)
        logger.warn({ err: error }, 'bot long polling restarts to receive a payment not recorded');
        // and never this one again: it would poll past the payment (holdLeases restarts the poll of the bot it finds)
        if (this.bot === bot) this.bot = null;
        this.token = undefined;
        again = true;
      })
      .finally(() => {
        this.polling = null;
        if (again) setTimeout(() => void this.supervise(), POLL_AGAIN_MS).unref();
      });
  }

  private async stopPolling(): Promise<void> {
    const polling = this.polling;
    if (!polling || !this.bot) return;
    await this.bot.stop().catch(() => {});
    await polling;
  }

  private async teardown(): Promise<void> {
    this.sender.stop();
    this.alerts.stop();
    await this.broadcasts.stop();
    await this.stopPolling();
    this.bot = null;
    this.paced = null;
    this.webhook = null;
    this.webhookRegistered = false;
    this.token = undefined;
  }

  /** The secret Telegram sends in its header with every update, while this instance takes webhook calls; null otherwise. */
  webhookSecret(): string | null {
    return this.webhook && this.token ? webhookSecretToken(this.token, this.options.env.JWT_SECRET) : null;
  }

  /** POST /telegram/webhook: grammY checks the secret token header (401 without it) and answers the update. */
  webhookHandler(): RequestHandler {
    return async (req, res, next) => {
      if (!this.webhook) {
        res.status(404).json({ message: 'Not found', code: 'NOT_FOUND' });
        return;
      }
      try {
        await this.webhook(req, res, next);
      } catch (error) {
        this.options.logger.warn(
          { err: error instanceof BotError ? toBotApiError(error.error, 'reply') : error },
          'bot update not answered',
        );
        if (res.headersSent) return;
        // a Stars payment the server could not record (the database away, not a refusal) is answered 500: Telegram sends
        // successful_payment once, and delivers it again only while its webhook fails, so a 200 here would lose the boost
        // (recording it again is harmless: it is keyed by its charge)
        const unrecorded = error instanceof BotError && paymentUnrecorded(error.error, (error as BotError<Context>).ctx);
        // any other update gets its 200 anyway: redelivering one whose answer failed would only fail again
        res.status(unrecorded ? 500 : 200).end();
      }
    };
  }

  /** Stops polling and sending, and lets the leases go so another instance takes over at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.leaseTimer);
    await this.round;
    await this.teardown();
    await Promise.all([releaseLease(POLLER_LEASE, this.holder), releaseLease(SENDER_LEASE, this.holder)]);
  }
}
