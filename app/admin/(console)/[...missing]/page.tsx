import { notFound } from "next/navigation";

/** Any other /admin address: the admin UI's not-found page, in its layout (the layout asks for a staff session first). */
export default function MissingAdminPage() {
  notFound();
}
