import { messages } from "../../../../shared/messages.js";
import { DashboardHeading } from "../components/dashboard-heading.js";

/* The dashboard's pages (SPEC.md §2); each feature fills its own page. */

const text = messages.dashboard;

export function MyOrdersPage() {
  return <DashboardHeading title={text.myOrders} lead={text.myOrdersLead} />;
}

export function AddReviewPage() {
  return <DashboardHeading title={text.addReview} lead={text.addReviewLead} />;
}

export function UsersPage() {
  return <DashboardHeading title={text.users} lead={text.usersLead} />;
}

export function ManageOrdersPage() {
  return <DashboardHeading title={text.manageOrders} lead={text.manageOrdersLead} />;
}

export function AddProductPage() {
  return <DashboardHeading title={text.addProduct} lead={text.addProductLead} />;
}

export function MakeAdminPage() {
  return <DashboardHeading title={text.makeAdmin} lead={text.makeAdminLead} />;
}

export function PaymentPage() {
  return <DashboardHeading title={text.payment} lead={text.paymentLead} />;
}

export function AdminOverviewPage() {
  return <DashboardHeading title={text.adminOverview} lead={text.adminOverviewLead} />;
}
