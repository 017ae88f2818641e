/**
 * `deploy/nginx/sift.conf` next to Debian's default site, as a new user
 * installs it: `apt-get install nginx` enables a site that is port 80's
 * `default_server` for `server_name _`. The shipped file used `_` too, so
 * `nginx -t` warned of a conflicting name and every request got the default
 * site's 404. Now `nginx -t` passes with no warning, and one port serves sift
 * for its `server_name` and the default site for every other name.
 */
import assert from "node:assert/strict";
import { startService } from "./service.ts";
import { debianDefaultSite, nginxConf, nginxOrSkip, startNginx } from "../helpers/nginx.ts";
import { RawConnection } from "../helpers/raw_http.ts";

const { nginx, ignore } = nginxOrSkip("nginx_default_site_test");
const ROOT = new URL("../../", import.meta.url).pathname;

/** The `server_name` the shipped file answers. */
async function shippedServerName(): Promise<string> {
  const site = await Deno.readTextFile(`${ROOT}deploy/nginx/sift.conf`);
  const name = /\n\s*server_name ([^;]+);/.exec(site)?.[1];
  assert.ok(name, "deploy/nginx/sift.conf sets server_name");
  return name.split(/\s+/)[0]!;
}

/** `GET path` on `port` asked for as `host`: status and body. */
async function get(port: number, host: string, path: string) {
  using connection = await RawConnection.open(port);
  await connection.send(`GET ${path} HTTP/1.1\r\nhost: ${host}\r\nconnection: close\r\n\r\n`);
  return await connection.response();
}

Deno.test({
  name: "nginx -t passes with no warning on sift.conf as shipped beside Debian's default site",
  ignore,
  async fn() {
    const prefix = await Deno.makeTempDir({ prefix: "sift-nginx-t-" });
    try {
      await Deno.writeTextFile(`${prefix}/default`, debianDefaultSite());
      await Deno.writeTextFile(
        `${prefix}/nginx.conf`,
        nginxConf(prefix, [`${prefix}/default`, `${ROOT}deploy/nginx/sift.conf`]),
      );
      const { code, stderr } = await new Deno.Command(nginx, {
        args: ["-t", "-p", `${prefix}/`, "-c", `${prefix}/nginx.conf`, "-e", `${prefix}/error.log`],
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(stderr);
      assert.equal(code, 0, text);
      assert.match(text, /test is successful/);
      assert.doesNotMatch(text, /\[(warn|emerg|error)\]/, text);
    } finally {
      await Deno.remove(prefix, { recursive: true });
    }
  },
});

Deno.test({
  name: "one port serves sift for its server_name and Debian's default site for other names",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const host = await shippedServerName();
    await using sift = await startService({
      DEMO_CORPUS: "false",
      SIFT_DATA_DIR: await Deno.makeTempDir(),
    });
    await using proxy = await startNginx(nginx, Number(new URL(sift.url).port), {}, {
      beside: debianDefaultSite(),
      host,
    });
    const health = await get(proxy.port, host, "/healthz");
    assert.equal(health.status, 200, await proxy.errorLog());
    assert.ok(JSON.parse(health.body).providers, health.body);
    const other = await get(proxy.port, "203.0.113.7", "/healthz");
    assert.equal(other.status, 404, "another name is the default site's");
    assert.doesNotMatch(other.body, /providers/);
  },
});
