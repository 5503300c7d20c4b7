import type { FormInstance, TablePaginationConfig } from "antd";
import { useEffect } from "react";
import { useSearchParams } from "react-router";
import { type FilterSpec, type FiltersOf, readFilters, writeFilters } from "@/lib/url-filters";

/**
 * A list's filters and paging, kept in the URL (reloads and "back" keep them).
 * @param spec filter name → how it is read from the URL
 * @param form the search form, whose field names are the filter names: kept in step with the URL
 * @param defaultSize page size when the URL names none
 */
export function useUrlFilters<S extends FilterSpec>(spec: S, form?: FormInstance, defaultSize = 10) {
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params, spec, defaultSize);
  const searchKey = params.toString();

  // Back/forward change the URL without remounting: keep the form in step with it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the URL string stands for every filter
  useEffect(() => {
    if (!form) return;
    const values: Record<string, unknown> = {};
    for (const key of Object.keys(spec)) values[key] = filters[key as keyof typeof filters];
    form.setFieldsValue(values);
  }, [form, searchKey]);

  const write = (next: Record<string, unknown>) => setParams(writeFilters(next, defaultSize));

  /** applies search-form values (blank text dropped) and goes back to page 1 */
  const search = (values: Partial<Omit<FiltersOf<S>, "page" | "size">>) => {
    const clean: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(values)) clean[k] = typeof v === "string" ? v.trim() || undefined : v;
    write({ page: 1, size: filters.size, ...clean });
  };

  /** clears every filter */
  const reset = () => {
    form?.resetFields();
    setParams(new URLSearchParams());
  };

  /** antd Table pagination bound to the URL */
  const pagination = (total: number | undefined): TablePaginationConfig => ({
    current: filters.page,
    pageSize: filters.size,
    total: total ?? 0,
    showSizeChanger: true,
    showTotal: (n) => `共 ${n} 条`,
    onChange: (page, size) => write({ ...filters, page: size === filters.size ? page : 1, size }),
  });

  return { filters, search, reset, pagination };
}
