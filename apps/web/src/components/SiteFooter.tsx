import type { SiteInfo } from "@burrow/contract";

/**
 * Public-page footer (SPEC §1): cloud provider, public-security and ICP filing numbers, telecom
 * value-added licence and the copyright line, all from GET /public/site.
 */
export function SiteFooter({ site, year = new Date().getFullYear() }: { site: SiteInfo | undefined; year?: number }) {
  if (!site) return <footer className="site-footer" />;
  const start = site.copyright_start || 2024;
  return (
    <footer className="site-footer">
      <p>云计算能力由 {site.cloud_provider} 提供</p>
      <p>
        <a href="https://beian.mps.gov.cn/" target="_blank" rel="noreferrer">
          公安备案号：{site.police_no}
        </a>
        <span className="site-footer-sep" aria-hidden>
          |
        </span>
        <a href="https://beian.miit.gov.cn/" target="_blank" rel="noreferrer">
          ICP 备案号：{site.icp_no}
        </a>
        <span className="site-footer-sep" aria-hidden>
          |
        </span>
        <span>增值电信业务经营许可证：{site.license_no}</span>
      </p>
      <p>
        © {start === year ? year : `${start}–${year}`} {site.brand}
      </p>
    </footer>
  );
}
