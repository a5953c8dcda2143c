import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { RequestHandler } from 'express';
import { BotError, webhookCallback, type Api, type Bot } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import type { Env } from '../../env';
import type { Logger } from '../../lib/logger';
import { pacedApi, toBotApiError } from '../../lib/telegramBot';
import { getAppConfig, resolveBotToken, setAppConfigFields } from '../config/config.service';
import { NotificationSender, reportNotificationProblemsTo } from '../notifications/notifications.service';
import { BroadcastSender } from '../broadcasts/broadcastSender.service';
import { createBot, openAppUrl, registerCommands, registerMenuButton, webhookSecretToken } from './bot.service';
import { holdLease, releaseLease } from '../jobs/jobLease.service';

/** The fixed webhook path; Telegram proves itself with the secret token header, not the path. */
export const WEBHOOK_PATH = '/telegram/webhook';
/** How often an instance re-reads the token and renews (or takes over) its leases. */
const SUPERVISE_MS = 15_000;
/** A lease outlives a few missed renewals, and a crashed holder is replaced within it. */
const LEASE_MS = 60_000;
const POLLER_LEASE = 'bot-poller';
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
  private stopped = false;
  private round: Promise<void> = Promise.resolve();
  private readonly clock: () => Date;
  readonly sender: NotificationSender;
  /** Sends broadcasts on every instance: their pace is shared through the database. */
  readonly broadcasts: BroadcastSender;

  constructor(private readonly options: BotRuntimeOptions) {
    this.clock = options.clock ?? (() => new Date());
    this.holder = options.holder ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    reportNotificationProblemsTo(options.logger);
    this.sender = new NotificationSender({
      api: () => this.paced,
      openAppUrl: () => openAppUrl(this.bot?.botInfo.username),
      holder: this.holder,
      logger: options.logger,
      clock: this.clock,
    });
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

  /** Starts the rounds: the first one now, then every SUPERVISE_MS. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.supervise();
    const tick = () => {
      if (this.stopped) return;
      this.timer = setTimeout(() => void this.supervise().finally(tick), SUPERVISE_MS);
      this.timer.unref();
    };
    tick();
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
    await bot.api.setWebhook(url, { secret_token: webhookSecretToken(token, this.options.env.JWT_SECRET), allowed_updates: ['message'] });
    this.webhookRegistered = true;
    this.options.logger.info({ url }, 'bot webhook registered');
  }

  private async holdRoles(): Promise<void> {
    const bot = this.bot;
    if (!bot) return;
    const now = this.clock();
    const { PUBLIC_URL } = this.options.env;
    if (PUBLIC_URL && !this.webhookRegistered) {
      await this.registerWebhook(bot, this.token!, PUBLIC_URL).catch((error) =>
        this.options.logger.warn({ err: toBotApiError(error, 'setWebhook') }, 'bot webhook not registered yet'),
      );
    }
    if (this.mode === 'polling') {
      const mine = await holdLease(POLLER_LEASE, this.holder, now, LEASE_MS);
      if (mine && !this.polling) this.startPolling(bot);
      if (!mine && this.polling) await this.stopPolling();
    }
    if (await holdLease(SENDER_LEASE, this.holder, now, LEASE_MS)) this.sender.start();
    else this.sender.stop();
    this.broadcasts.start();
  }

  private startPolling(bot: Bot): void {
    const { logger } = this.options;
    // bot.start deletes any webhook first, then long-polls until stopped
    this.polling = bot
      .start({ allowed_updates: ['message'], onStart: (me) => logger.info({ bot: me.username }, 'bot long polling') })
      .catch((error) => logger.warn({ err: toBotApiError(error, 'getUpdates') }, 'bot long polling stopped'))
      .finally(() => {
        this.polling = null;
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
        // Telegram gets its 200 anyway: redelivering an update whose answer failed would only fail again
        this.options.logger.warn(
          { err: error instanceof BotError ? toBotApiError(error.error, 'reply') : error },
          'bot update not answered',
        );
        if (!res.headersSent) res.end();
      }
    };
  }

  /** Stops polling and sending, and lets the leases go so another instance takes over at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.round;
    await this.teardown();
    await Promise.all([releaseLease(POLLER_LEASE, this.holder), releaseLease(SENDER_LEASE, this.holder)]);
  }
}
