/** A name's first letter in capitals, whole even when it is an emoji (two UTF-16 units), or '?' for no name. */
const initial = (name: string) => (Array.from(name.trim())[0] ?? '?').toUpperCase();

/** A round picture, or the name's first letter when there is none; `small` for a row of a list. */
export function Avatar({ name, photo, small = false }: { name: string; photo?: string; small?: boolean }) {
  return (
    <span className={small ? 'avatar coin-avatar' : 'avatar'} aria-hidden="true">
      {photo ? <img src={photo} alt="" /> : initial(name)}
    </span>
  );
}

/** A coin's picture, or its symbol's first letter when it has none. */
export const CoinIcon = ({ coin }: { coin: { icon: string; symbol: string } }) =>
  coin.icon ? <img src={coin.icon} alt="" loading="lazy" /> : <Avatar name={coin.symbol} small />;

/** A player's name (the username for one without), then @username. */
export function PlayerName({ name, username, testId }: { name: string; username: string; testId?: string }) {
  return (
    <>
      <div className="title" data-testid={testId}>
        <bdi>{name || username}</bdi>
      </div>
      {username && (
        <div className="muted">
          <bdi dir="ltr">@{username}</bdi>
        </div>
      )}
    </>
  );
}
