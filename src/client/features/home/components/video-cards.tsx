import { Link } from "react-router";
import { homeMessages } from "../../../../shared/messages/home.js";
import { TitledSection } from "../../../components/titled-section.js";
import { paths } from "../../../lib/paths.js";

const text = homeMessages.videoCards;

const CARDS: ReadonlyArray<{ key: keyof typeof text.cards; thumbnail: string }> = [
  { key: "airflow", thumbnail: "/media/video/card-1.svg" },
  { key: "mouseDpi", thumbnail: "/media/video/card-2.svg" },
  { key: "rgbSync", thumbnail: "/media/video/card-3.svg" },
];

/** Home section 6: three short guides, each card leading to the video page. */
export function VideoCards() {
  return (
    <TitledSection id="video-cards" title={text.title} lead={text.lead}>
      <ul className="grid gap-6 md:grid-cols-3">
        {CARDS.map(({ key, thumbnail }) => {
          const card = text.cards[key];
          return (
            <li key={key}>
              <article className="card relative h-full border border-base-content/10 bg-base-200 transition-colors hover:border-primary/60">
                <figure className="aspect-video">
                  <img
                    src={thumbnail}
                    alt={card.alt}
                    width={800}
                    height={450}
                    loading="lazy"
                    decoding="async"
                    className="h-full w-full object-cover"
                  />
                </figure>
                <div className="card-body">
                  <h3 className="card-title">
                    {/* The link covers the whole card; its name stays the guide's title. */}
                    <Link
                      to={paths.video}
                      className="after:absolute after:inset-0 after:rounded-box focus-visible:outline-none focus-visible:after:outline-3 focus-visible:after:outline-primary"
                    >
                      {card.title}
                    </Link>
                  </h3>
                  <p className="text-base-content/75">{card.text}</p>
                  <p aria-hidden="true" className="mt-2 text-sm font-semibold text-primary">
                    {text.watch} →
                  </p>
                </div>
              </article>
            </li>
          );
        })}
      </ul>
    </TitledSection>
  );
}
