#!/usr/bin/env bash
# Checks the deployment files, failing on the first problem:
#   1. builds helm once from the Go module proxy into the cache (outside git);
#   2. helm lint, plain and --strict, and helm template, for the default values and each values file in
#      deploy/helm/folio/ci/ (KEDA and ServiceMonitors on; no autoscaling, everything as values), with a look at what
#      each rendered (HPA or ScaledObject, never both), NOTES.txt, and the values the chart must refuse;
#   3. every knob of README's configuration table is a value of the chart (or a stated exception);
#   4. deploy/compose.yaml loaded as `docker compose config` loads it (compose-go), and the alert rules in
#      the chart's files/prometheus-rules.yaml checked as `promtool check rules` checks them (both built once into the cache).
# Nothing here talks to a cluster or a Docker daemon: the manifests are not checked against a live API server.
# Usage: npm run deploy:check   (or bash deploy/check.sh)
# Env: FOLIO_CACHE_DIR (default ~/.cache/folio); HELM_VERSION (default below); FOLIO_HELM (a helm binary to use).
set -euo pipefail
cd "$(dirname "$0")/.."

HELM_VERSION="${HELM_VERSION:-v3.22.0}"
cache="${FOLIO_CACHE_DIR:-$HOME/.cache/folio}"
chart=deploy/helm/folio
say() { echo "deploy:check: $*" >&2; }
die() { say "FAILED: $*"; exit 1; }

# The machine's Go where PATH lacks it (a shell that never sourced the profile adding the official install's place).
if ! command -v go >/dev/null && [[ -x /usr/local/go/bin/go ]]; then PATH="/usr/local/go/bin:$PATH"; fi

# --- 1. helm
helm="${FOLIO_HELM:-$cache/helm-$HELM_VERSION/helm}"
if [[ ! -x "$helm" ]]; then
  command -v go >/dev/null || die "go is needed to build helm $HELM_VERSION"
  say "building helm $HELM_VERSION into $(dirname "$helm") (once; a few minutes the first time)"
  start=$SECONDS
  mkdir -p "$(dirname "$helm")"
  # GOFLAGS=-mod=mod so that no go.mod around us matters; GOBIN puts the binary in the cache, not ~/go/bin. The -X
  # flag is how helm's own release build stamps its version (else `helm version` says only v3.22).
  GOBIN="$(cd "$(dirname "$helm")" && pwd)" GOFLAGS=-mod=mod CGO_ENABLED=0 \
    go install -ldflags "-X helm.sh/helm/v3/internal/version.version=$HELM_VERSION" "helm.sh/helm/v3/cmd/helm@$HELM_VERSION"
  say "built helm in $((SECONDS - start)) s"
fi
say "$("$helm" version --short)"

# --- 2. lint and template
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
# A Kubernetes version for the capabilities templates see (helm's offline default is 1.20).
kube=(--kube-version 1.30.0)
render() { # name, helm template arguments...
  local name=$1
  shift
  "$helm" template folio "$chart" --namespace folio "${kube[@]}" "$@" >"$out/$name.yaml" 2>"$out/$name.err" ||
    { cat "$out/$name.err" >&2; die "helm template ($name) failed"; }
  [[ ! -s "$out/$name.err" ]] || { cat "$out/$name.err" >&2; die "helm template ($name) printed warnings"; }
}
kinds() { grep -E '^kind: ' "$out/$1.yaml" | sort | uniq -c | awk '{printf "%s %s, ", $1, $3}' | sed 's/, $//'; }
has() { grep -qE "^kind: $2\$" "$out/$1.yaml"; }

for values in "" "$chart"/ci/*-values.yaml; do
  name=$(basename "${values:-default}" -values.yaml)
  args=()
  [[ -n "$values" ]] && args=(-f "$values")
  "$helm" lint "$chart" "${kube[@]}" "${args[@]}" >"$out/lint.txt" 2>&1 || { cat "$out/lint.txt" >&2; die "helm lint ($name)"; }
  "$helm" lint --strict "$chart" "${kube[@]}" "${args[@]}" >"$out/lint.txt" 2>&1 || { cat "$out/lint.txt" >&2; die "helm lint --strict ($name)"; }
  grep -E '^\[(WARNING|ERROR)\]' "$out/lint.txt" >&2 && die "helm lint ($name) warned"
  render "$name" "${args[@]}"
  say "$name: lint --strict clean; rendered $(kinds "$name")"
done

# NOTES.txt, which `helm template` never renders: a copy of the chart with the notes as a ConfigMap's value.
notes_chart="$out/notes-chart"
cp -r "$chart" "$notes_chart"
{ echo '{{- define "folio.notesText" -}}'; cat "$chart/templates/NOTES.txt"; echo '{{- end -}}'; } >"$notes_chart/templates/_notes.tpl"
rm "$notes_chart/templates/NOTES.txt"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: notes}\ndata:\n  notes: {{ include "folio.notesText" . | quote }}\n' \
  >"$notes_chart/templates/zz-notes.yaml"
for values in "" "$chart"/ci/*-values.yaml; do
  args=()
  [[ -n "$values" ]] && args=(-f "$values")
  "$helm" template folio "$notes_chart" "${kube[@]}" "${args[@]}" --show-only templates/zz-notes.yaml >/dev/null ||
    die "NOTES.txt does not render (${values:-default values})"
done

# What each rendered: the CPU HPA as the default, KEDA instead of it (never both), the ServiceMonitors when asked.
has default HorizontalPodAutoscaler || die "default values: no HPA for the renderers"
has default ScaledObject && die "default values: a ScaledObject although KEDA is off"
has keda ScaledObject || die "ci/keda-values.yaml: no ScaledObject"
grep -q 'name: folio-renderer$' <(grep -A3 '^kind: HorizontalPodAutoscaler' "$out/keda.yaml") &&
  die "ci/keda-values.yaml: an HPA on the renderers beside KEDA's"
[[ $(grep -c '^kind: ServiceMonitor' "$out/keda.yaml") == 4 ]] || die "ci/keda-values.yaml: not one ServiceMonitor per app"
has keda PrometheusRule || die "ci/keda-values.yaml: no PrometheusRule"
has default PrometheusRule && die "default values: a PrometheusRule although it is off"
grep -q '^kind: ConfigMap' "$out/default.yaml" && ! grep -A30 '^kind: ConfigMap' "$out/default.yaml" | grep -qE 'DATABASE_URL|FOLIO_KEY_SECRET|AWS_SECRET' ||
  die "a secret variable in the ConfigMap"

# Values the chart must refuse, with the reason.
refuse() { # what, expected message, helm template arguments...
  local what=$1 expected=$2
  shift 2
  if "$helm" template folio "$chart" "${kube[@]}" "$@" >/dev/null 2>"$out/refused.err"; then die "rendered $what"; fi
  grep -q "$expected" "$out/refused.err" || { cat "$out/refused.err" >&2; die "refused $what for another reason"; }
}
refuse "renderers scaled to zero by KEDA" "minReplicaCount must be at least 1" \
  --set renderer.keda.enabled=true --set renderer.keda.minReplicaCount=0
refuse "a renderer without a metrics port" "renderer.metricsPort must be a port number" --set renderer.metricsPort=off
refuse "a short FOLIO_KEY_SECRET" "at least 32 characters" --set secrets.values.FOLIO_KEY_SECRET=short
say "NOTES.txt renders; refused: KEDA to zero, a worker without metrics, a short key secret"

# --- 3. README's knobs are values
exceptions="FOLIO_CACHE_DIR FOLIO_JAVA FOLIO_FAULT_RENDER_DELAY_MS FOLIO_FAULT_THROW_ON FOLIO_FAULT_CRASH_ON FOLIO_FAULT_UNCONFIRMED_ON FOLIO_METRICS_PORT"
knobs=$(sed -n '/^## Configuration/,/^## /p' README.md | grep '^| `' | cut -d'|' -f2 | grep -o '`[A-Z][A-Z0-9_]*`' | tr -d '`' | sort -u)
[[ -n "$knobs" ]] || die "found no knobs in README's configuration table"
missing=()
for knob in $knobs; do
  [[ " $exceptions " == *" $knob "* ]] && continue
  grep -qE "^ +$knob:" "$chart/values.yaml" || missing+=("$knob")
done
((${#missing[@]} == 0)) || die "README knobs that are no chart value: ${missing[*]} (add them to config or secrets in $chart/values.yaml)"
say "every knob of README's table is a value ($(wc -w <<<"$knobs") knobs; exceptions: $exceptions)"

# --- 4. the compose file and the alert rules, with small Go tools built once into the cache (deploy/tools)
tools_src=deploy/tools
tools="$cache/deploy-tools-$(cat "$tools_src"/go.mod "$tools_src"/go.sum "$tools_src"/*/main.go | sha256sum | cut -c1-12)"
if [[ ! -x "$tools/compose-check" || ! -x "$tools/rules-check" ]]; then
  say "building compose-check (compose-go) and rules-check (Prometheus' rule parser) into $tools"
  mkdir -p "$tools"
  (cd "$tools_src" && GOFLAGS=-mod=mod CGO_ENABLED=0 go build -o "$tools/" ./compose-check ./rules-check)
fi
"$tools/compose-check" deploy/compose.yaml >"$out/compose.yaml" || die "deploy/compose.yaml does not load"
services=$(grep -cE '^  [a-z-]+:$' <(sed -n '/^services:/,/^[a-z]/p' "$out/compose.yaml"))
say "deploy/compose.yaml loads ($services services)"
rules=$("$tools/rules-check" deploy/helm/folio/files/prometheus-rules.yaml) || die "deploy/helm/folio/files/prometheus-rules.yaml does not check"
say "$rules"
say "OK"
