import useEmblaCarousel from "embla-carousel-react";
import { startTransition, useCallback, useEffect, useState } from "react";
import { Link } from "react-router";
import { SLIDER_INTERVAL_MS } from "../../../../shared/constants.js";
import { homeMessages } from "../../../../shared/messages/home.js";
import { Icon } from "../../../components/icon.js";
import { ScriptButton } from "../../../components/script-button.js";
import { paths } from "../../../lib/paths.js";
import { usePrefersReducedMotion } from "../../../lib/use-media-query.js";
import { SLIDES } from "../slides.js";
import { PlayPauseIcon } from "./play-pause-icon.js";

const text = homeMessages.slider;

/** Previous or Next on the banner's edge: level with the picture's middle on phones, the banner's from lg. */
function ArrowButton({
  direction,
  label,
  onClick,
}: {
  direction: "left" | "right";
  label: string;
  onClick(): void;
}) {
  const left = direction === "left";
  return (
    <ScriptButton
      type="button"
      onClick={onClick}
      aria-label={label}
      className={`btn btn-circle btn-neutral absolute top-[18.75vw] ${left ? "left-3" : "right-3"} -translate-y-1/2 lg:top-1/2`}
    >
      <Icon
        path={left ? "M15 5l-7 7 7 7" : "M9 5l7 7-7 7"}
        className="h-6 w-6 fill-none stroke-current stroke-2"
      />
    </ScriptButton>
  );
}

/**
 * Home section 1: a looping banner of the five product families. It advances by itself
 * unless the visitor prefers reduced motion, pauses while hovered or focused, and can be
 * stopped with its own button.
 */
export function HeroSlider() {
  const reducedMotion = usePrefersReducedMotion();
  const [emblaRef, emblaApi] = useEmblaCarousel({ loop: true });
  // Embla's ref is a state setter. Called as React commits the hydrated page, it would have the
  // page drawn again at once, with every effect of the page and Embla's start in the same long
  // task; as a transition, that comes after, in tasks of its own
  // (docs/decisions/first-page-main-thread.md).
  const viewportRef = useCallback(
    (node: HTMLDivElement | null) => {
      startTransition(() => emblaRef(node));
    },
    [emblaRef],
  );
  const [selected, setSelected] = useState(0);
  const [playChoice, setPlayChoice] = useState<boolean | null>(null);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const playing = playChoice ?? !reducedMotion;

  useEffect(() => {
    if (!emblaApi) return;
    const onSelect = () => setSelected(emblaApi.selectedScrollSnap());
    onSelect();
    emblaApi.on("select", onSelect).on("reInit", onSelect);
    return () => {
      emblaApi.off("select", onSelect).off("reInit", onSelect);
    };
  }, [emblaApi]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `selected` restarts the timer after every slide change, so a manual step gets a full interval too
  useEffect(() => {
    if (!emblaApi || !playing || hovered || focused) return;
    const timer = window.setTimeout(() => emblaApi.scrollNext(), SLIDER_INTERVAL_MS);
    return () => window.clearTimeout(timer);
  }, [emblaApi, playing, hovered, focused, selected]);

  const scrollPrev = useCallback(() => emblaApi?.scrollPrev(), [emblaApi]);
  const scrollNext = useCallback(() => emblaApi?.scrollNext(), [emblaApi]);

  return (
    <section
      aria-roledescription="carousel"
      aria-label={text.label}
      className="relative bg-base-300"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
      }}
    >
      <div ref={viewportRef} className="overflow-hidden">
        <div className="flex" aria-live={playing ? "off" : "polite"}>
          {SLIDES.map((slide, index) => {
            const copy = text.slides[slide.key];
            const current = index === selected;
            return (
              // The WAI-ARIA carousel pattern: each slide is a labelled group.
              // biome-ignore lint/a11y/useSemanticElements: a fieldset is for form controls
              <div
                key={slide.key}
                role="group"
                aria-roledescription="slide"
                aria-label={text.position(index + 1, SLIDES.length)}
                inert={!current}
                className="relative min-w-0 flex-[0_0_100%]"
              >
                <img
                  src={slide.image}
                  alt={copy.alt}
                  width={1600}
                  height={600}
                  loading={index === 0 ? "eager" : "lazy"}
                  fetchPriority={index === 0 ? "high" : "auto"}
                  decoding={index === 0 ? "sync" : "async"}
                  className="aspect-[8/3] w-full object-cover"
                />
                <div className="bg-base-300 px-4 pt-6 pb-16 sm:px-8 lg:absolute lg:inset-y-0 lg:left-0 lg:flex lg:w-1/2 lg:flex-col lg:justify-center lg:bg-transparent lg:bg-linear-to-r lg:from-base-300 lg:via-base-300/85 lg:to-transparent lg:px-16 lg:pb-6">
                  <h2 className="text-2xl font-extrabold tracking-tight sm:text-4xl lg:text-5xl">
                    {copy.title}
                  </h2>
                  <p className="mt-3 max-w-md text-base-content/80 sm:text-lg">{copy.text}</p>
                  <Link
                    to={`${paths.tools}?category=${slide.category}`}
                    className="btn btn-primary mt-6 w-fit"
                  >
                    {copy.cta}
                  </Link>
                </div>
              </div>
            );
          })}
        </div>
      </div>

      <ArrowButton direction="left" label={text.previous} onClick={scrollPrev} />
      <ArrowButton direction="right" label={text.next} onClick={scrollNext} />

      <div className="absolute inset-x-0 bottom-4 flex items-center justify-center gap-2">
        {SLIDES.map((slide, index) => (
          <ScriptButton
            key={slide.key}
            type="button"
            onClick={() => emblaApi?.scrollTo(index)}
            aria-label={text.goTo(index + 1)}
            aria-current={index === selected ? "true" : undefined}
            className="flex h-6 w-6 items-center justify-center"
          >
            <span
              className={
                index === selected
                  ? "bg-rgb block h-2.5 w-6 rounded-full"
                  : "block h-2.5 w-2.5 rounded-full bg-base-content/50"
              }
            />
          </ScriptButton>
        ))}
        <ScriptButton
          type="button"
          onClick={() => setPlayChoice(!playing)}
          aria-label={playing ? text.pause : text.play}
          className="btn btn-ghost btn-xs btn-circle ml-2"
        >
          <PlayPauseIcon playing={playing} className="h-4 w-4 fill-current" />
        </ScriptButton>
      </div>
    </section>
  );
}
