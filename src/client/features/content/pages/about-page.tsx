import { Link } from "react-router";
import { CATEGORIES, CATEGORY_LABELS, MIN_ORDER_QUANTITY } from "../../../../shared/constants.js";
import { commonMessages } from "../../../../shared/messages/common.js";
import { contentMessages } from "../../../../shared/messages/content.js";
import { PageHeader } from "../../../components/page-header.js";
import { paths } from "../../../lib/paths.js";
import { ProseSection } from "../components/prose-section.js";

const WHAT_WE_SELL: Record<(typeof CATEGORIES)[number], string> = {
  keyboards: "mechanical and low-profile boards with hot-swappable switches and per-key RGB.",
  mice: "light wired and wireless mice with accurate optical sensors and reliable switches.",
  memory: "DDR4 and DDR5 kits with tested timings, in matched pairs with RGB heat spreaders.",
  headphones: "closed and open-back headsets with clear microphones and comfortable cushions.",
  "cooling-fans": "quiet, high-airflow case and radiator fans, many with addressable RGB rings.",
};

/** /about: who Gearhouse is, what it sells and how ordering, shipping and support work. */
export function AboutPage() {
  return (
    <>
      <PageHeader
        title={contentMessages.about}
        lead="Gearhouse is an online shop for gaming computer parts, run by people who build, tune and play on the gear they sell."
      />
      <div className="mx-auto grid max-w-7xl gap-12 px-4 py-12 sm:px-6 lg:grid-cols-[2fr_1fr]">
        <div className="space-y-12">
          <ProseSection id="who-we-are" title="Who we are">
            <p>
              We started Gearhouse because equipping a team, a gaming café or a LAN centre meant chasing the
              same keyboard across five shops. We keep a focused catalog of parts we have tested ourselves,
              show real stock numbers next to every product, and keep prices in plain US dollars, per unit,
              with no surprises at checkout.
            </p>
            <p>
              Our customers are esports teams, system integrators, schools with computer labs, streamers and
              players who simply want their whole setup to match.
            </p>
          </ProseSection>

          <ProseSection id="what-we-sell" title="What we sell">
            <p>
              Five families of parts, each chosen for build quality, support and lighting that can be synced:
            </p>
            <ul>
              {CATEGORIES.map((category) => (
                <li key={category}>
                  <Link to={`${paths.tools}?category=${category}`}>{CATEGORY_LABELS[category]}</Link>:{" "}
                  {WHAT_WE_SELL[category]}
                </li>
              ))}
            </ul>
            <p>
              Most RGB parts work with <Link to={paths.ique}>Gearhouse iQue</Link>, our lighting software that
              keeps every zone of your setup in step.
            </p>
          </ProseSection>

          <ProseSection id="shipping" title="Bulk orders and shipping">
            <p>
              Gearhouse sells in quantity: every order is for at least {MIN_ORDER_QUANTITY} units of a
              product, up to the stock shown on its page. That makes kitting out a whole team or a room of
              stations one order instead of ten.
            </p>
            <ol>
              <li>Sign in, open a product and book the quantity, delivery address and contact number.</li>
              <li>
                Pay the order by card from <Link to={paths.dashboard.root}>your dashboard</Link>. The units
                are reserved for you as soon as you book, so the stock cannot run out under you.
              </li>
              <li>
                Once paid, your order shows its transaction id and is packed and shipped to the address you
                gave. The dashboard shows when it has shipped.
              </li>
            </ol>
            <p>
              Changed your mind before paying? Remove the order from your dashboard and the units go straight
              back into stock.
            </p>
          </ProseSection>

          <ProseSection id="support" title="Help and support">
            <p>
              Your dashboard is the place to follow every order: what you booked, the total price, whether it
              is paid and its transaction id. Your profile keeps your address, city and phone number so our
              couriers can reach you.
            </p>
            <p>
              Forgot your password? <Link to={paths.passwordReset}>Reset it here</Link> and we email you a
              link. Not sure which part to pick? Read what other builders say in the{" "}
              <Link to={paths.reviews}>customer reviews</Link>, or our <Link to={paths.blogs}>blog</Link>.
            </p>
          </ProseSection>
        </div>

        <aside
          aria-labelledby="in-short"
          className="h-fit rounded-box border border-base-content/10 bg-base-200 p-6"
        >
          <h2 id="in-short" className="text-lg font-semibold">
            Gearhouse in short
          </h2>
          <ul className="mt-4 space-y-4">
            <li>
              <p className="text-3xl font-bold text-primary">{CATEGORIES.length}</p>
              <p className="text-base-content/80">product families, all built for gaming</p>
            </li>
            <li>
              <p className="text-3xl font-bold text-primary">{MIN_ORDER_QUANTITY}+</p>
              <p className="text-base-content/80">units per order, up to the stock on hand</p>
            </li>
          </ul>
          <Link to={paths.tools} className="btn btn-primary btn-block mt-6">
            {commonMessages.browseProducts}
          </Link>
        </aside>
      </div>
    </>
  );
}
