import type { Metadata } from "next";
import { BreachDataUploads } from "../../_components/breach-data-upload";
import { adminApi } from "../../_lib/server";

export const metadata: Metadata = { title: "Breach data" };

/**
 * Breach data uploads (docs/admin-ui.md, "Breach data"): a catalogue and its accounts, or a
 * stealer-log file, imported while the service runs. Shown to every role; the forms only to staff
 * who may upload (owners of a distributor the operator allowed), the others read why not.
 */
export default async function BreachDataPage() {
  const access = await (await adminApi()).admin.breachData.access();
  return (
    <>
      <h1>Breach data</h1>
      <p className="muted">
        The breach catalogue and the index of exposed accounts are shared by every distributor of this service: what you import here is
        matched against the monitored domains and addresses of every active customer, and new findings are reported as a scan&apos;s are.
      </p>
      {access.mayImport ? (
        <BreachDataUploads limits={access.uploadLimits} stealerLogBreaches={access.stealerLogBreaches} />
      ) : (
        <section className="card" aria-label="Who may upload">
          <p>{access.refusal}</p>
        </section>
      )}
    </>
  );
}
