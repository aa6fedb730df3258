import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { homeMessages } from "../../../../shared/messages/home.js";
import { ScriptButton } from "../../../components/script-button.js";
import { paths } from "../../../lib/paths.js";
import { usePrefersReducedMotion } from "../../../lib/use-media-query.js";
import { PlayPauseIcon } from "./play-pause-icon.js";

const text = homeMessages.video;

/**
 * Home section 5 and the /video page: a muted looping clip behind the headline. It only
 * plays by itself when the visitor has not asked for reduced motion.
 */
export function VideoHero({ standalone = false }: { standalone?: boolean }) {
  const reducedMotion = usePrefersReducedMotion();
  const videoRef = useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = useState(false);
  const Heading = standalone ? "h1" : "h2";

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    if (reducedMotion) video.pause();
    else void video.play().catch(() => setPlaying(false));
  }, [reducedMotion]);

  const toggle = () => {
    const video = videoRef.current;
    if (!video) return;
    if (video.paused) void video.play().catch(() => setPlaying(false));
    else video.pause();
  };

  return (
    <section aria-labelledby="video-hero" className="relative isolate overflow-hidden bg-base-300">
      <video
        ref={videoRef}
        muted
        loop
        playsInline
        autoPlay={!reducedMotion}
        preload={reducedMotion ? "none" : "auto"}
        poster="/media/video/hero-poster.webp"
        width={1280}
        height={720}
        aria-hidden="true"
        tabIndex={-1}
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        className="absolute inset-0 -z-10 h-full w-full object-cover"
      >
        <source src="/media/video/hero.webm" type="video/webm" />
        <source src="/media/video/hero.mp4" type="video/mp4" />
      </video>
      <div className="absolute inset-0 -z-10 bg-linear-to-r from-base-300 via-base-300/80 to-base-300/30" />
      <div className="mx-auto flex min-h-[28rem] max-w-7xl flex-col justify-center px-4 py-20 sm:px-6 lg:min-h-[34rem]">
        <p className="text-sm font-semibold uppercase tracking-widest text-primary">{text.eyebrow}</p>
        <Heading
          id="video-hero"
          className="mt-3 max-w-3xl text-4xl font-extrabold tracking-tight sm:text-5xl"
        >
          {text.title}
        </Heading>
        <p className="mt-4 max-w-xl text-lg text-base-content/85">{text.text}</p>
        <div className="mt-8 flex flex-wrap items-center gap-4">
          <Link to={paths.tools} className="btn btn-primary btn-lg">
            {text.cta}
          </Link>
          <ScriptButton type="button" onClick={toggle} className="btn btn-outline btn-lg">
            <PlayPauseIcon playing={playing} className="h-5 w-5 fill-current" />
            {playing ? text.pause : text.play}
          </ScriptButton>
        </div>
      </div>
    </section>
  );
}
