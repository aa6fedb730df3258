import { homeMessages } from "../../../../shared/messages/home.js";
import { Icon } from "../../../components/icon.js";
import { TitledSection } from "../../../components/titled-section.js";

const text = homeMessages;

const ICONS: Record<keyof typeof text.stats, string> = {
  traffic: "M3 17l6-6 4 4 8-8M15 7h6v6",
  newUsers: "M16 19v-1a4 4 0 00-4-4H7a4 4 0 00-4 4v1M9.5 10a3.5 3.5 0 100-7 3.5 3.5 0 000 7zM19 8v6M22 11h-6",
  sales: "M12 2v20M17 6H9.5a3.5 3.5 0 000 7h5a3.5 3.5 0 010 7H6",
  performance: "M12 14l4-4M3.5 18a9 9 0 1117 0",
};

const STAT_KEYS = Object.keys(ICONS) as Array<keyof typeof text.stats>;

/** Home section 3 and the /business page: four headline figures of the shop. */
export function BusinessSummary({ standalone = false }: { standalone?: boolean }) {
  return (
    <TitledSection
      id="business-summary"
      level={standalone ? 1 : 2}
      title={text.businessSummary}
      lead={text.businessSummaryLead}
    >
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {STAT_KEYS.map((key) => {
          const stat = text.stats[key];
          return (
            <li key={key} className="stat rounded-box border border-base-content/10 bg-base-200">
              <div className="stat-figure text-primary">
                <Icon
                  path={ICONS[key]}
                  className="h-8 w-8 fill-none stroke-current stroke-2 [stroke-linecap:round] [stroke-linejoin:round]"
                />
              </div>
              <p className="stat-title text-base-content/80">{stat.title}</p>
              <p className="stat-value">{stat.value}</p>
              <p className="stat-desc text-sm whitespace-normal text-success">{stat.change}</p>
            </li>
          );
        })}
      </ul>
    </TitledSection>
  );
}
