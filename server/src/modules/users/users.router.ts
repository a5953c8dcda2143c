import { reminderSwitchInput, settingsInput } from '@gift/shared';
import { createTRPCRouter, protectedProcedure } from '../../http/trpc';
import { allowMessages, profileOf, remindersOf, switchReminderOf, updateSettings } from './users.service';

export const usersRouter = createTRPCRouter({
  /** The signed-in player's profile and per-coin figures. */
  me: protectedProcedure.query(({ ctx }) => profileOf(ctx.user)),
  updateSettings: protectedProcedure.input(settingsInput).mutation(({ ctx, input }) => updateSettings(ctx.user, input, ctx.now())),
  /** Which kinds of reminders the bot sends the player (each on unless switched off), and whether it may message them at all. */
  reminders: protectedProcedure.query(({ ctx }) => remindersOf(ctx.user._id)),
  /** Switches one kind of reminder on or off; answers as `reminders` does. */
  switchReminder: protectedProcedure
    .input(reminderSwitchInput)
    .mutation(({ ctx, input }) => switchReminderOf(ctx.user._id, input.kind, input.on)),
  /** Telegram answered the app's write-access request with "allowed". */
  allowMessages: protectedProcedure.mutation(({ ctx }) => allowMessages(ctx.user, ctx.now())),
});
