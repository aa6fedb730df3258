import { useState } from "react";
import { dashboardMessages } from "../../../../shared/messages/dashboard.js";
import { AdminPage } from "../../../components/admin-page.js";
import { NewProductForm } from "../components/new-product-form.js";
import { ProductList } from "../components/product-list.js";

/**
 * /dashboard/addProduct (admin): the form for a new product, then the products on sale or the
 * archived ones, each with Edit, Archive or Restore, and Delete.
 */
export function AddProductPage() {
  const [page, setPage] = useState(1);
  const [archived, setArchived] = useState(false);
  return (
    <AdminPage title={dashboardMessages.addProduct} lead={dashboardMessages.addProductLead}>
      <div className="flex flex-col gap-10">
        <NewProductForm
          onCreated={() => {
            setArchived(false);
            setPage(1);
          }}
        />
        <ProductList
          page={page}
          onPage={setPage}
          archived={archived}
          onArchived={(view) => {
            setArchived(view);
            setPage(1);
          }}
        />
      </div>
    </AdminPage>
  );
}
