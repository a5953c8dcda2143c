/** A record's image in a phone's list line: square, or round for a coin's icon. */
export function Thumbnail({ src, round = false }: { src: string; round?: boolean }) {
  return <img src={src} alt="" style={{ width: 40, height: 40, objectFit: 'cover', borderRadius: round ? '50%' : 4 }} />;
}
