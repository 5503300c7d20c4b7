/** GET /api/public/site: brand and footer values, all from server configuration. */
export interface SiteInfo {
  brand: string;
  /** "云计算能力由 {cloud_provider} 提供" */
  cloud_provider: string;
  police_no: string;
  icp_no: string;
  license_no: string;
  /** copyright start year (2024) */
  copyright_start: number;
  /**
   * PUBLIC_URL, the console's public base URL; null when unset (then frps plugin addresses are
   * guessed from the browser's address, and third-party sign-in, real payment and verification
   * providers cannot be used)
   */
  public_url: string | null;
}
