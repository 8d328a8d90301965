import type { ReactNode } from "react";

/** One column of a DataTable: its heading and what each row shows in it. */
export interface Column<Row> {
  header: string;
  /** A heading only screen readers announce (an actions column). */
  hideHeader?: boolean;
  /** The row's own heading cell (`<th scope="row">`): what the row is about. */
  rowHeader?: boolean;
  /** Classes of the heading and every cell: `number`, `wrap`, `nowrap`. */
  className?: string;
  cell: (row: Row) => ReactNode;
  /** A cell's tooltip, e.g. the full list behind a count. */
  title?: (row: Row) => string;
}

/**
 * The admin UI's table: headed columns in a box that scrolls sideways on its own, so a wide table
 * never widens the page on a phone. Server and client components both use it.
 */
export function DataTable<Row>({
  rows,
  columns,
  rowKey,
  rowData,
  caption,
  className,
  footer,
}: {
  rows: readonly Row[];
  columns: ReadonlyArray<Column<Row> | false | null | undefined>;
  rowKey: (row: Row) => string;
  /** `data-*` attributes of a row (what tests and scripts find it by). */
  rowData?: (row: Row) => Record<`data-${string}`, string>;
  /** The table's name for screen readers. */
  caption?: string;
  className?: string;
  footer?: ReactNode;
}) {
  const shown = columns.filter((column): column is Column<Row> => Boolean(column));
  return (
    <div className="table-scroll">
      <table className={className}>
        {caption ? <caption className="visually-hidden">{caption}</caption> : null}
        <thead>
          <tr>
            {shown.map((column) => (
              <th key={column.header} scope="col" className={column.className}>
                {column.hideHeader ? <span className="visually-hidden">{column.header}</span> : column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} {...rowData?.(row)}>
              {shown.map((column) => {
                const Cell = column.rowHeader ? "th" : "td";
                return (
                  <Cell
                    key={column.header}
                    scope={column.rowHeader ? "row" : undefined}
                    className={column.className}
                    title={column.title?.(row)}
                  >
                    {column.cell(row)}
                  </Cell>
                );
              })}
            </tr>
          ))}
        </tbody>
        {footer ? <tfoot>{footer}</tfoot> : null}
      </table>
    </div>
  );
}
