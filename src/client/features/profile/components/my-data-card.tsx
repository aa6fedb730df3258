import { myDataMessages } from "../../../../shared/messages/my-data.js";
import { MY_DATA_PATH } from "../../../../shared/my-data.js";
import { CardSection } from "../../../components/card-section.js";

const text = myDataMessages.card;

/**
 * Profile's "Your data" (issue 34, item 3): a plain link to GET /api/me/data, which the browser
 * downloads with the session's cookie as the server writes it (a ZIP of data.json and orders.csv),
 * never held whole in the page.
 */
export function MyDataCard() {
  return (
    <CardSection id="my-data-heading" title={text.heading}>
      <p className="text-base-content/80">{text.lead}</p>
      <p className="text-sm text-base-content/80">{text.note}</p>
      <div className="card-actions">
        <a href={MY_DATA_PATH} download className="btn btn-primary">
          {text.download}
        </a>
      </div>
    </CardSection>
  );
}
