/** Home's first cover as the server put it in the page's shell (`#first-cover`, written on a launch at /), or none. */
export interface ShellCover {
  image: string;
  title: string;
  link: string;
}

let read: ShellCover | null | undefined;

export function shellCover(): ShellCover | null {
  if (read !== undefined) return read;
  read = null;
  try {
    const data: unknown = JSON.parse(document.getElementById('first-cover')?.textContent ?? 'null');
    if (data && typeof data === 'object' && typeof (data as ShellCover).image === 'string' && (data as ShellCover).image) {
      const { image, title, link } = data as ShellCover;
      read = { image, title: typeof title === 'string' ? title : '', link: typeof link === 'string' ? link : '' };
    }
  } catch {
    // a page without it (served by the service worker, or another route): the skeleton shows instead
  }
  return read;
}

/**
 * The shell's cover where home's covers go, while the session and home's data are on their way: the picture the page
 * painted before the app ran stays on screen, in the same place and size, instead of turning into a grey block.
 */
export function ShellCoverStrip({ cover }: { cover: ShellCover }) {
  return (
    <div className="covers" aria-hidden="true">
      <div>
        <img src={cover.image} alt="" fetchPriority="high" />
      </div>
    </div>
  );
}
