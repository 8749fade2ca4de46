// Validates rendered Kubernetes manifests (helm template output, one file of YAML documents):
//  1. every object against its Kubernetes OpenAPI schema, as compiled by kubernetes-models
//     (types, required fields, formats; Kubernetes' schemas allow unknown fields, so those pass);
//  2. what no schema sees: each volumeMount names a volume of its pod, each Secret and ConfigMap
//     a pod uses is rendered too (or named in --external), each workload's selector matches its
//     pod template, each Service selects some pod template and names ports those pods expose.
// Usage: node validate.mjs RENDERED.yaml [--external name,...]
import { readFileSync } from "node:fs";
import { parseAllDocuments } from "yaml";

const [file, ...rest] = process.argv.slice(2);
const external = new Set(rest[0] === "--external" ? rest[1].split(",") : []);
const docs = parseAllDocuments(readFileSync(file, "utf8"))
  .map((d) => { if (d.errors.length) throw d.errors[0]; return d.toJS(); })
  .filter((o) => o);
const errors = [];
const where = (o) => `${o.kind}/${o.metadata?.name}`;

for (const o of docs) {
  const group = o.apiVersion; // "v1" or "apps/v1": the module paths of kubernetes-models
  let mod;
  try {
    mod = await import(`kubernetes-models/${group}`);
  } catch {
    errors.push(`${where(o)}: no schema for apiVersion ${o.apiVersion}`);
    continue;
  }
  const Model = mod[o.kind];
  if (!Model) {
    errors.push(`${where(o)}: no kind ${o.kind} in ${o.apiVersion}`);
    continue;
  }
  try {
    new Model(o).validate();
  } catch (e) {
    errors.push(`${where(o)}: ${e.message}`);
  }
}

const named = (kind) => new Set(docs.filter((o) => o.kind === kind).map((o) => o.metadata.name));
const secrets = named("Secret");
const configMaps = named("ConfigMap");
const templates = [];
for (const o of docs) {
  const tpl = o.spec?.template;
  if (!tpl?.spec) continue;
  templates.push({ owner: o, tpl });
  const sel = o.spec.selector?.matchLabels ?? {};
  for (const [k, v] of Object.entries(sel)) {
    if (tpl.metadata?.labels?.[k] !== v) errors.push(`${where(o)}: selector ${k}=${v} does not match its pod template`);
  }
  const volumes = new Set((tpl.spec.volumes ?? []).map((v) => v.name));
  for (const c of o.spec.volumeClaimTemplates ?? []) volumes.add(c.metadata.name);
  for (const c of [...(tpl.spec.containers ?? []), ...(tpl.spec.initContainers ?? [])]) {
    for (const m of c.volumeMounts ?? []) {
      if (!volumes.has(m.name)) errors.push(`${where(o)}: container ${c.name} mounts unknown volume ${m.name}`);
    }
    for (const e of c.env ?? []) {
      const s = e.valueFrom?.secretKeyRef?.name;
      if (s && !secrets.has(s) && !external.has(s)) errors.push(`${where(o)}: env ${e.name} uses missing Secret ${s}`);
    }
  }
  for (const v of tpl.spec.volumes ?? []) {
    const srcs = [v, ...(v.projected?.sources ?? [])];
    for (const s of srcs) {
      const sn = s.secret?.secretName ?? s.secret?.name;
      if (sn && !secrets.has(sn) && !external.has(sn)) errors.push(`${where(o)}: volume ${v.name} uses missing Secret ${sn}`);
      const cn = s.configMap?.name;
      if (cn && !configMaps.has(cn) && !external.has(cn)) errors.push(`${where(o)}: volume ${v.name} uses missing ConfigMap ${cn}`);
    }
  }
}
for (const svc of docs.filter((o) => o.kind === "Service")) {
  const sel = svc.spec.selector ?? {};
  const pods = templates.filter(({ tpl }) => Object.entries(sel).every(([k, v]) => tpl.metadata?.labels?.[k] === v));
  if (!pods.length) { errors.push(`${where(svc)}: selects no pod template`); continue; }
  const exposed = new Set(pods.flatMap(({ tpl }) => tpl.spec.containers.flatMap((c) => (c.ports ?? []).map((p) => p.containerPort))));
  for (const p of svc.spec.ports ?? []) {
    const target = p.targetPort ?? p.port;
    if (typeof target === "number" && !exposed.has(target)) errors.push(`${where(svc)}: port ${p.name} (${target}) is not a container port`);
  }
}
for (const o of docs) console.log(`${errors.some((e) => e.startsWith(where(o) + ":")) ? "FAIL" : "ok  "} ${o.apiVersion} ${where(o)}`);
if (errors.length) {
  for (const e of errors) console.error(`error: ${e}`);
  process.exit(1);
}
console.log(`${docs.length} objects valid`);
