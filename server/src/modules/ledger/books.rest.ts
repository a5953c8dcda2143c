import { Router } from 'express';
import { booksInput } from '@gift/shared';
import { requirePermission } from '../../http/adminAuth';
import { validate } from '../../http/resource';
import { booksFigures } from './books.service';

/**
 * GET /api/admin/books[?coin=<id>]: the books per coin (what players hold, each house account, the trial balance, the
 * operations in flight, the hot wallet's holdings beside what is owed). Read with the withdrawals permission, the
 * Treasury's: it shows the hot wallet and what is owed on chain beside every money figure.
 */
export function booksRouter(): Router {
  const router = Router();
  router.use(requirePermission('withdraws'));
  router.get('/', async (req, res) => {
    res.json(await booksFigures(validate(booksInput, { coin: req.query.coin })));
  });
  return router;
}
