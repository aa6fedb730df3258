import { Icon } from "../../../components/icon.js";

/** Pause while the motion plays, Play while it is stopped; the button beside it says which in words. */
export function PlayPauseIcon({ playing, className }: { playing: boolean; className: string }) {
  return <Icon path={playing ? "M6 5h4v14H6zM14 5h4v14h-4z" : "M7 4.5v15l12-7.5z"} className={className} />;
}
