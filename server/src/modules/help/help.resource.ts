import { appealAnswerInput, faqInput } from '@gift/shared';
import { orderedResource, type ResourceDefinition } from '../../http/resource';
import { playerIdsMatching } from '../users/players.service';
import { AppealModel, FaqModel } from './help.models';
import { answerAppeal } from './help.service';

/** The Help page's questions and answers, written by operators in both languages. */
export const faqsResource = orderedResource('faqs', FaqModel, faqInput, { search: ['question'] });

const NAMES = [
  { path: 'user', select: 'name username status' },
  { path: 'answeredBy', select: 'username' },
];

interface NamedAppeal {
  toJSON(): Record<string, unknown>;
}

/** An appeal as the console reads it: the player's id with their name beside it, and who answered by name. */
function presentAppeal(doc: unknown) {
  const json = (doc as NamedAppeal).toJSON();
  const user = json.user as { id?: string; _id?: unknown; name?: string; username?: string; status?: string } | null;
  const answeredBy = json.answeredBy as { username?: string } | null;
  return {
    ...json,
    user: user && typeof user === 'object' ? String(user.id ?? user._id) : user,
    userName: user?.name ?? '',
    username: user?.username ?? '',
    playerStatus: user?.status ?? '',
    answeredBy: answeredBy && typeof answeredBy === 'object' ? (answeredBy.username ?? '') : '',
  };
}

/**
 * Banned and frozen players' appeals: the queue oldest first; editing one is answering it (once), which the bot sends to the
 * player. Players create them; nobody deletes them.
 */
export const appealsResource: ResourceDefinition<typeof appealAnswerInput> = {
  name: 'appeals',
  model: AppealModel,
  list: {
    searchReferences: { user: playerIdsMatching },
    filters: { status: 'equals', user: 'objectId' },
  },
  record: { populate: NAMES, present: presentAppeal },
  update: {
    schema: appealAnswerInput,
    run: async (id, { answer }, { operator }) => (await answerAppeal(id, answer, operator.id, new Date())).populate(NAMES),
    auditAs: 'review',
  },
  remove: { refusal: 'An appeal stays on record' },
};
