import { useRef, useState, type PointerEvent as ReactPointerEvent, type WheelEvent as ReactWheelEvent } from 'react';
import { useTranslate } from 'react-admin';
import { useDateLocales } from '../../lists/ConsoleDateField';
import { Box, Dialog, DialogContent, DialogTitle, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import FitScreenIcon from '@mui/icons-material/FitScreen';
import ZoomInIcon from '@mui/icons-material/ZoomIn';
import ZoomOutIcon from '@mui/icons-material/ZoomOut';

const MIN_SCALE = 1;
const MAX_SCALE = 8;
const STEP = 1.25;

type Point = { x: number; y: number };
const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/**
 * The proof picture full size: zoomed with the buttons, the wheel or a pinch (1× to 8×), dragged to look around once zoomed in.
 * Esc or Close shuts it. Each opening starts at 1×, the whole picture in view.
 */
/** The picture's CSS transform: moved by the drag, then scaled (CSS, not words: built from parts, not a template). */
function zoomTransform(offset: Point, scale: number): string {
  const parts = ['translate', '(', String(offset.x), 'px, ', String(offset.y), 'px) scale(', String(scale), ')'];
  return parts.join('');
}

export function ProofZoomDialog({ url, open, onClose }: { url: string; open: boolean; onClose: () => void }) {
  const translate = useTranslate();
  const locales = useDateLocales();
  const [scale, setScale] = useState(1);
  const [offset, setOffset] = useState<Point>({ x: 0, y: 0 });
  // the pointers on the picture: one drags, two pinch
  const pointers = useRef(new Map<number, Point>());
  const gesture = useRef<{ from: Point; offset: Point } | { span: number; scale: number } | null>(null);

  const zoomTo = (next: number) => {
    const bounded = Math.min(MAX_SCALE, Math.max(MIN_SCALE, next));
    setScale(bounded);
    if (bounded === MIN_SCALE) setOffset({ x: 0, y: 0 });
  };
  const reset = () => {
    setScale(1);
    setOffset({ x: 0, y: 0 });
    pointers.current.clear();
    gesture.current = null;
  };
  const startGesture = () => {
    const [first, second] = [...pointers.current.values()];
    gesture.current = second ? { span: distance(first!, second), scale } : first ? { from: first, offset } : null;
  };

  const onPointerDown = (event: ReactPointerEvent) => {
    event.currentTarget.setPointerCapture?.(event.pointerId);
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    startGesture();
  };
  const onPointerMove = (event: ReactPointerEvent) => {
    if (!pointers.current.has(event.pointerId)) return;
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const now = gesture.current;
    if (!now) return;
    if ('span' in now) {
      const [first, second] = [...pointers.current.values()];
      if (first && second && now.span > 0) zoomTo((now.scale * distance(first, second)) / now.span);
    } else if (scale > 1) setOffset({ x: now.offset.x + event.clientX - now.from.x, y: now.offset.y + event.clientY - now.from.y });
  };
  const onPointerUp = (event: ReactPointerEvent) => {
    pointers.current.delete(event.pointerId);
    startGesture();
  };
  const onWheel = (event: ReactWheelEvent) => zoomTo(event.deltaY < 0 ? scale * STEP : scale / STEP);

  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      maxWidth="xl"
      aria-labelledby="proof-zoom-title"
      slotProps={{ transition: { onEnter: reset } }}
      data-testid="proof-zoom"
    >
      <DialogTitle id="proof-zoom-title" sx={{ py: 1 }}>
        {/* on a phone the title has its own line above the buttons, whole */}
        <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography variant="h6" component="span" sx={{ flex: 1, flexBasis: { xs: '100%', sm: 0 }, minWidth: { sm: 0 } }}>
            {translate('reviews.fullTitle')}
          </Typography>
          <Tooltip title={translate('reviews.zoomOut')}>
            <span>
              <IconButton aria-label={translate('reviews.zoomOut')} onClick={() => zoomTo(scale / STEP)} disabled={scale <= MIN_SCALE}>
                <ZoomOutIcon />
              </IconButton>
            </span>
          </Tooltip>
          <Typography component="output" data-testid="proof-zoom-level" sx={{ minWidth: 48, textAlign: 'center' }}>
            {new Intl.NumberFormat(locales, { style: 'percent', maximumFractionDigits: 0 }).format(scale)}
          </Typography>
          <Tooltip title={translate('reviews.zoomIn')}>
            <span>
              <IconButton aria-label={translate('reviews.zoomIn')} onClick={() => zoomTo(scale * STEP)} disabled={scale >= MAX_SCALE}>
                <ZoomInIcon />
              </IconButton>
            </span>
          </Tooltip>
          <Tooltip title={translate('reviews.zoomFit')}>
            <IconButton aria-label={translate('reviews.zoomFit')} onClick={() => zoomTo(1)}>
              <FitScreenIcon />
            </IconButton>
          </Tooltip>
          <IconButton aria-label={translate('reviews.close')} onClick={onClose}>
            <CloseIcon />
          </IconButton>
        </Stack>
      </DialogTitle>
      <DialogContent
        dividers
        onWheel={onWheel}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        sx={{
          p: 0,
          height: '80vh',
          overflow: 'hidden',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          touchAction: 'none',
          cursor: scale > 1 ? 'grab' : 'zoom-in',
          bgcolor: 'action.hover',
        }}
      >
        <Box
          component="img"
          src={url}
          alt={translate('reviews.screenshot')}
          draggable={false}
          data-testid="proof-zoom-image"
          sx={{
            maxWidth: '100%',
            maxHeight: '100%',
            objectFit: 'contain',
            userSelect: 'none',
            transformOrigin: 'center',
          }}
          // inline: it changes with every move of a drag or a pinch
          style={{ transform: zoomTransform(offset, scale) }}
        />
      </DialogContent>
    </Dialog>
  );
}
