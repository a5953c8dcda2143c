// Exports and views in a real Chromium (issue 34, item 4, and defect 8): an operator filters the players, exports what the list
// shows as a CSV, hides a column, saves the filter as a view and brings it back; the audit reads in words and names, in English
// and in Persian, at 1280×800 and 390×844, and exports too.
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { AccountModel } from '../server/src/modules/accounts/account.model';
import { recordAudit } from '../server/src/modules/audit/audit.service';
import { UserModel } from '../server/src/modules/users/user.model';
import { useProduct } from './fixture';
import { PHONE, screenshotPath, shot } from './support';

jest.setTimeout(300_000);

const OPERATOR = 'export-operator';
const APPROVER = 'second-approver';

const product = useProduct({
  operators: [
    { username: OPERATOR, permissions: ['*'] },
    { username: APPROVER, permissions: ['*'] },
  ],
  before: seed,
});

afterAll(() => {
  expect(product.pageErrors).toEqual([]);
  expect(product.missingTranslations).toEqual([]);
});

/** Six players, two of them banned (one with a name a spreadsheet would run), and an approval and a title change audited. */
async function seed() {
  const names = ['Ava Active', 'Ben Active', 'Cleo Active', 'Dan Active', 'Banned, "Eve"', '=Farm Bot'];
  for (const [i, name] of names.entries())
    await UserModel.create({
      telegramId: 8_100_000 + i,
      name,
      username: `export${i}`,
      referralCode: `e2eexport${i}`,
      status: i >= 4 ? 'banned' : 'active',
      createdAt: new Date(Date.UTC(2026, 1, 1 + i, 9)),
    });
  const [writer, approver] = await Promise.all([
    AccountModel.findOne({ username: OPERATOR }),
    AccountModel.findOne({ username: APPROVER }),
  ]);
  const operator = { id: String(writer!._id), username: OPERATOR };
  const player = (await UserModel.findOne({ telegramId: 8_100_000 }))!;
  await recordAudit({
    operator,
    action: 'review',
    resource: 'withdraws',
    record: String(player._id),
    before: { status: 'pending', approvedBy: null, approvedAt: null },
    after: { status: 'approved', approvedBy: String(approver!._id), approvedAt: '2026-03-01T10:00:00.000Z' },
  });
  await recordAudit({
    operator,
    action: 'update',
    resource: 'users',
    record: String(player._id),
    before: { status: 'active', fa: { statusReason: '' } },
    after: { status: 'frozen', fa: { statusReason: 'بررسی' } },
  });
}

/** Clicks the list's Export button and answers the CSV it downloaded, as rows of cells. */
async function exportCsv(page: Page, name: string | RegExp): Promise<string[][]> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name }).click()]);
  const text = await readFile(await download.path(), 'utf8');
  expect(text.startsWith('\ufeff')).toBe(true);
  // the cells of these rows hold no line break: a quoted comma is read as one cell
  return text
    .slice(1)
    .trim()
    .split('\r\n')
    .map((line) =>
      [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)].map((m) => m[1]!.replace(/^"|"$/g, '').replace(/""/g, '"')).slice(0, -1),
    );
}

const noOverflow = (page: Page) =>
  expect(page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).resolves.toBe(true);

describe('in English', () => {
  it('exports the banned players the list shows, hides a column and brings a saved view back (1280×800)', async () => {
    const page = await product.signInOperator(OPERATOR, { signOutFirst: true });
    await page.goto(`${product.base}/admin/users`);
    await page.getByText('Ava Active').waitFor();
    // filter by status: Banned, through the Filter button
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Status' }).click();
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Banned' }).click();
    await page.getByText('Ava Active').waitFor({ state: 'detached' });
    const shown = await page.locator('tbody tr td:nth-child(3)').allInnerTexts();
    expect(shown.sort()).toEqual(['=Farm Bot', 'Banned, "Eve"']);

    const [header, ...rows] = await exportCsv(page, 'Export');
    expect(header).toEqual(expect.arrayContaining(['Id', 'Telegram id', 'Name', 'Status', 'Created']));
    const column = (title: string) => rows.map((row) => row[header!.indexOf(title)]);
    expect(column('Name').sort()).toEqual(["'=Farm Bot", 'Banned, "Eve"']);
    expect(column('Status')).toEqual(['Banned', 'Banned']);
    expect(column('Created').every((when) => /^2026-02-0\dT09:00:00\.000Z$/.test(when!))).toBe(true);

    // the column chooser hides Username, and the table follows
    await page.getByRole('columnheader', { name: 'Username' }).waitFor();
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('presentation').getByLabel('Username').uncheck();
    await page.keyboard.press('Escape');
    await page.getByRole('columnheader', { name: 'Username' }).waitFor({ state: 'detached' });

    // the filter saved as a view, cleared, and brought back from the Filter menu
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.getByRole('menuitem', { name: 'Save current query...' }).click();
    await page.getByRole('dialog').getByLabel('Query name').fill('Banned players');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.getByRole('menuitem', { name: 'Remove all filters' }).click();
    await page.getByText('Ava Active').waitFor();
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.getByRole('menuitem', { name: 'Banned players' }).click();
    await page.getByText('Ava Active').waitFor({ state: 'detached' });
    await expect(page.locator('tbody tr').count()).resolves.toBe(2);
    await shot(page, 'console-exports-users-en');
    await page.close();
  });

  it('reads the audit in names and words on a phone, and exports it (390×844)', async () => {
    const page = await product.signInOperator(OPERATOR, { signOutFirst: true, viewport: PHONE });
    await page.goto(`${product.base}/admin/audit`);
    await page.getByText(`Approved by: — → ${APPROVER}`).waitFor();
    await page.getByText('Status: Pending → Approved').waitFor();
    await expect(page.getByText(/approvedBy|6b0/).count()).resolves.toBe(0);
    await noOverflow(page);
    await shot(page, 'console-exports-audit-en-phone');
    const [header, ...rows] = await exportCsv(page, 'Export');
    expect(header).toEqual(['When', 'Operator', 'Action', 'Resource', 'Record', 'Record name', 'Changes', 'Note']);
    const approval = rows.find((row) => row[2] === 'Review')!;
    expect(approval.slice(1, 4)).toEqual([OPERATOR, 'Review', 'Withdraw']);
    expect(approval[6]).toBe(`Status: Pending → Approved; Approved by: — → ${APPROVER}; Approved: — → 2026-03-01T10:00:00.000Z`);
    await page.close();
  });
});

describe('in Persian', () => {
  it('reads the audit in Persian, filtered by operator, and exports what it shows (1280×800)', async () => {
    const page = await product.signInOperator(OPERATOR, { signOutFirst: true, persian: true });
    await page.goto(`${product.base}/admin/audit`);
    const approval = page.locator('tbody tr').filter({ hasText: 'برداشت' });
    await approval.getByText(`تأییدکننده: — → ${APPROVER}`).waitFor();
    await approval.getByText('وضعیت: در انتظار → تأییدشده').waitFor();
    // the Persian reason, not the whole `fa` object; dates in Solar Hijri with Persian digits
    await page.getByText('فارسی، دلیل: — → بررسی').waitFor();
    await expect(approval.textContent()).resolves.toMatch(/زمان تأیید: — → ۱۰ اسفند ۱۴۰۴، /);
    await expect(page.locator('tbody').textContent()).resolves.not.toMatch(/[0-9]{4}-[0-9]{2}/);

    // the operator filter, through the Filter button
    await page.getByRole('button', { name: 'اضافه‌کردن فیلتر' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'اپراتور' }).click();
    await page.getByRole('combobox', { name: 'اپراتور' }).fill(OPERATOR.slice(0, 6));
    await page.getByRole('option', { name: OPERATOR }).click();
    await page.waitForURL(/account/);
    await expect(page.locator('tbody tr').count()).resolves.toBe(2);
    await shot(page, 'console-exports-audit-fa');
    const [header, ...rows] = await exportCsv(page, 'دریافت خروجی');
    expect(header!.slice(0, 3)).toEqual(['زمان', 'اپراتور', 'کار']);
    expect(rows).toHaveLength(2);
    expect(rows.map((row) => row[1])).toEqual([OPERATOR, OPERATOR]);
    await page.close();
  });

  it('fits the players and the audit on a phone, in Persian (390×844)', async () => {
    const page = await product.signInOperator(OPERATOR, { signOutFirst: true, persian: true, viewport: PHONE });
    await page.goto(`${product.base}/admin/audit`);
    await page.getByText(`تأییدکننده: — → ${APPROVER}`).waitFor();
    await noOverflow(page);
    await page.screenshot({ path: screenshotPath('console-exports-audit-fa-phone') });
    await page.goto(`${product.base}/admin/users`);
    await page.getByText('Ava Active').waitFor();
    await page.getByRole('button', { name: 'دریافت خروجی' }).waitFor();
    await noOverflow(page);
    await shot(page, 'console-exports-users-fa-phone');
    await page.close();
  });
});
