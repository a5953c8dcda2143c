import { Box, Button, Paper, Typography } from '@mui/material';
import { parseTelegramHtml, type FormattedPiece } from '@gift/shared/schemas/broadcasts';
import { useTranslate } from 'react-admin';

const TAGS: Record<string, 'b' | 'i' | 'u' | 's' | 'code' | 'pre' | 'blockquote'> = {
  b: 'b',
  strong: 'b',
  i: 'i',
  em: 'i',
  u: 'u',
  ins: 'u',
  s: 's',
  strike: 's',
  del: 's',
  code: 'code',
  pre: 'pre',
  blockquote: 'blockquote',
};

function Pieces({ pieces }: { pieces: FormattedPiece[] }) {
  return (
    <>
      {pieces.map((piece, i) => {
        if (typeof piece === 'string') return <span key={i}>{piece}</span>;
        const children = <Pieces pieces={piece.children} />;
        if (piece.tag === 'a')
          return (
            <a key={i} href={piece.href} target="_blank" rel="noreferrer">
              {children}
            </a>
          );
        if (piece.tag === 'tg-spoiler')
          return (
            <Box key={i} component="span" sx={{ bgcolor: 'action.selected', borderRadius: 0.5 }}>
              {children}
            </Box>
          );
        const Tag = TAGS[piece.tag] ?? 'span';
        return <Tag key={i}>{children}</Tag>;
      })}
    </>
  );
}

/**
 * The message as Telegram will show it: the photo, the formatted text (or what Telegram would refuse in it) and the
 * button. The same reading of the HTML the server checks before it saves.
 */
export function MessagePreview({
  text,
  imageUrl,
  button,
  rtl = false,
}: {
  text: string;
  imageUrl?: string;
  button?: string | null;
  rtl?: boolean;
}) {
  const translate = useTranslate();
  const read = parseTelegramHtml(text ?? '');
  return (
    <Paper variant="outlined" sx={{ p: 1.5, maxWidth: 420, borderRadius: 3 }} aria-label={translate('broadcasts.preview')}>
      {imageUrl ? <Box component="img" src={imageUrl} alt="" sx={{ width: '100%', borderRadius: 2, mb: 1 }} /> : null}
      {'problem' in read ? (
        <Typography color="error" variant="body2">
          {read.problem}
        </Typography>
      ) : (
        <Typography variant="body2" component="div" dir={rtl ? 'rtl' : 'ltr'} sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {text ? (
            <Pieces pieces={read.pieces} />
          ) : (
            <Box component="span" sx={{ color: 'text.disabled' }}>
              {translate('broadcasts.emptyText')}
            </Box>
          )}
        </Typography>
      )}
      {button ? (
        <Button fullWidth variant="outlined" size="small" sx={{ mt: 1, textTransform: 'none' }} tabIndex={-1}>
          {button}
        </Button>
      ) : null}
    </Paper>
  );
}
