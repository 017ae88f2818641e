/**
 * A real nginx (Debian's) in front of a test's sift, run as a foreground
 * process with everything it writes (pid, logs, temp files) in a temporary
 * prefix, listening on a free loopback port, on `deploy/nginx/sift.conf`
 * with only its ports (and, when asked, its timeouts) changed.
 */
import { captureOutput, freePort } from "../e2e/service.ts";
import { RawConnection } from "./raw_http.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** `NGINX`, else `nginx` on PATH, else /usr/sbin/nginx (Debian's, often not on a user's PATH). */
export function findNginx(): string | undefined {
  const candidates = [
    Deno.env.get("NGINX"),
    ...(Deno.env.get("PATH") ?? "").split(":").filter(Boolean).map((dir) => `${dir}/nginx`),
    "/usr/sbin/nginx",
  ];
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      if (Deno.statSync(candidate).isFile) return candidate;
    } catch { /* not here */ }
  }
  return undefined;
}

/** Missing nginx skips locally and fails under CI, so a CI image without it cannot pass by skipping. */
export function nginxOrSkip(suite: string): { nginx: string; ignore: boolean } {
  const nginx = findNginx();
  if (nginx) return { nginx, ignore: false };
  if (Deno.env.get("CI")) {
    throw new Error(`${suite}: nginx is missing and CI is set: .ci/run installs Debian's nginx`);
  }
  console.warn(`${suite}: skipped, no nginx (apt-get install nginx, or set NGINX)`);
  return { nginx: "nginx", ignore: true };
}

export type RunningNginx = {
  url: string;
  port: number;
  errorLog: () => Promise<string>;
  close: () => Promise<void>;
  [Symbol.asyncDispose]: () => Promise<void>;
};

/**
 * Debian's default site (`/etc/nginx/sites-enabled/default`), or, where that
 * file is absent, the lines of it that matter here: port 80's
 * `default_server` for every other name (`_`), answering 404.
 */
export function debianDefaultSite(): string {
  try {
    return Deno.readTextFileSync("/etc/nginx/sites-enabled/default");
  } catch {
    return [
      "server {",
      "  listen 80 default_server;",
      "  listen [::]:80 default_server;",
      "  root /var/www/html;",
      "  server_name _;",
      "  location / { try_files $uri $uri/ =404; }",
      "}",
    ].join("\n");
  }
}

/** The http block of a test's nginx.conf: every path under `prefix`, then `sites`. */
export function nginxConf(prefix: string, sites: string[]): string {
  return [
    "pid nginx.pid;",
    `error_log ${prefix}/error.log info;`,
    "worker_processes 1;",
    "events { worker_connections 256; }",
    "http {",
    `  access_log ${prefix}/access.log;`,
    `  client_body_temp_path ${prefix}/client_body;`,
    `  proxy_temp_path ${prefix}/proxy;`,
    `  fastcgi_temp_path ${prefix}/fastcgi;`,
    `  uwsgi_temp_path ${prefix}/uwsgi;`,
    `  scgi_temp_path ${prefix}/scgi;`,
    ...sites.map((site) => `  include ${site};`),
    "}",
  ].join("\n");
}

/**
 * Starts nginx on `deploy/nginx/sift.conf` in front of `upstreamPort`; resolves
 * once it answers. `replace` swaps whole directive values for the test (e.g.
 * a shorter `client_header_timeout`). With `options.beside`, that site (e.g.
 * Debian's default) listens on the same port, and readiness is asked for as
 * `options.host`.
 */
export async function startNginx(
  nginx: string,
  upstreamPort: number,
  replace: Record<string, string> = {},
  options: { beside?: string; host?: string } = {},
): Promise<RunningNginx> {
  const prefix = await Deno.makeTempDir({ prefix: "sift-nginx-" });
  const port = freePort();
  let site = await Deno.readTextFile(`${ROOT}deploy/nginx/sift.conf`);
  site = site
    .replace(/server 127\.0\.0\.1:8787;/, `server 127.0.0.1:${upstreamPort};`)
    .replace(/listen 80;/, `listen 127.0.0.1:${port};`)
    .replace(/\n\s*listen \[::\]:80;/, "");
  for (const [directive, value] of Object.entries(replace)) {
    const pattern = new RegExp(`(\\n\\s*${directive}) [^;]+;`);
    if (!pattern.test(site)) throw new Error(`deploy/nginx/sift.conf has no ${directive}`);
    site = site.replace(pattern, `$1 ${value};`);
  }
  await Deno.writeTextFile(`${prefix}/sift.conf`, site);
  const sites = [`${prefix}/sift.conf`];
  if (options.beside) {
    const beside = options.beside
      .replace(/\n\s*listen \[::\]:80[^;]*;/g, "")
      .replace(/listen 80( default_server)?;/g, `listen 127.0.0.1:${port}$1;`);
    await Deno.writeTextFile(`${prefix}/beside.conf`, beside);
    sites.unshift(`${prefix}/beside.conf`);
  }
  // The test's own shell around the site files: one process, every path under the prefix.
  await Deno.writeTextFile(`${prefix}/nginx.conf`, nginxConf(prefix, sites));
  const child = new Deno.Command(nginx, {
    // master_process off: one process, so no worker switches to another user who could
    // not write the temporary prefix.
    args: [
      "-p",
      `${prefix}/`,
      "-c",
      `${prefix}/nginx.conf`,
      "-e",
      `${prefix}/error.log`,
      "-g",
      "daemon off; master_process off;",
    ],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const { output, drained } = captureOutput(child);
  const errorLog = () => Deno.readTextFile(`${prefix}/error.log`).catch(() => "");
  const close = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* gone */ }
    await child.status;
    await drained;
    await Deno.remove(prefix, { recursive: true }).catch(() => {});
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  while (true) {
    try {
      if (await answersHealth(port, options.host)) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) {
      const log = await errorLog();
      await close();
      throw new Error(`nginx did not start:\n${output()}\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, port, errorLog, close, [Symbol.asyncDispose]: close };
}

/** `GET /healthz` through nginx answers 200, asked for as `host` (fetch cannot set Host). */
async function answersHealth(port: number, host = `127.0.0.1:${port}`): Promise<boolean> {
  using connection = await RawConnection.open(port);
  await connection.send(`GET /healthz HTTP/1.1\r\nhost: ${host}\r\nconnection: close\r\n\r\n`);
  return (await connection.response(5_000)).status === 200;
}
