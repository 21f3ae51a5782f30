{{/* The four apps of the image, in the order they are rendered. */}}
{{- define "folio.apps" -}}
api renderer projector dispatcher
{{- end -}}

{{- define "folio.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "folio.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The name of one app's objects: <fullname>-<app>. Call with (dict "root" $ "app" "api"). */}}
{{- define "folio.appName" -}}
{{- printf "%s-%s" (include "folio.fullname" .root | trunc 52 | trimSuffix "-") .app -}}
{{- end -}}

{{- define "folio.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ include "folio.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Values.image.tag | default .Chart.AppVersion | trunc 63 | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: folio
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Labels of one app's objects. Call with (dict "root" $ "app" "api"). */}}
{{- define "folio.appLabels" -}}
{{ include "folio.labels" .root }}
app.kubernetes.io/component: {{ .app }}
{{- end -}}

{{- define "folio.selectorLabels" -}}
app.kubernetes.io/name: {{ include "folio.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .app }}
{{- end -}}

{{- define "folio.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "folio.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "folio.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) -}}
{{- end -}}
{{- end -}}

{{/* The Secret the secret variables are read from: the user's, or the one the chart makes. */}}
{{- define "folio.secretName" -}}
{{- default (include "folio.fullname" .) .Values.secrets.existingSecret -}}
{{- end -}}

{{/*
The port an app serves metrics on: a number, "" (the API only: on the API port) or "off" (the API only). The
renderer, projector and dispatcher must have a number: their probes use it. Call with (dict "root" $ "app" "api").
*/}}
{{- define "folio.metricsPort" -}}
{{- $port := toString (index .root.Values .app).metricsPort -}}
{{- if and (ne .app "api") (not (regexMatch "^[0-9]+$" $port)) -}}
{{- fail (printf "%s.metricsPort must be a port number (its probes GET /metrics there), not %q" .app $port) -}}
{{- end -}}
{{- if not (regexMatch "^([0-9]+|off|)$" $port) -}}
{{- fail (printf "%s.metricsPort must be a port number, \"\" or \"off\", not %q" .app $port) -}}
{{- end -}}
{{- $port -}}
{{- end -}}

{{/* The API's port, from config.FOLIO_PORT (Folio's default 8080 when empty). */}}
{{- define "folio.apiPort" -}}
{{- .Values.config.FOLIO_PORT | default "8080" -}}
{{- end -}}

{{/*
Where Prometheus scrapes an app: the port name and number. The API without a metrics port of its own is scraped on
its API port. Empty when the app has no metrics. Call with (dict "root" $ "app" "api"); yields "name:number".
*/}}
{{- define "folio.scrapePort" -}}
{{- $port := include "folio.metricsPort" . -}}
{{- if regexMatch "^[0-9]+$" $port -}}
metrics:{{ $port }}
{{- else if eq $port "" -}}
http:{{ include "folio.apiPort" .root }}
{{- end -}}
{{- end -}}

{{/*
The secret variables of an app, as env entries. Every app gets DATABASE_URL, the S3 credentials, FOLIO_FILE_SECRET
and the OTLP headers; only the dispatcher gets FOLIO_KEY_SECRET (it alone opens sealed keys; the CLI seals them).
A variable named in secrets.from comes from there; otherwise from the Secret of folio.secretName: required there
(DATABASE_URL, FOLIO_KEY_SECRET) when it is the user's, or only the keys the chart put in its own.
*/}}
{{- define "folio.secretEnv" -}}
{{- $root := .root -}}
{{- $names := list "DATABASE_URL" "AWS_ACCESS_KEY_ID" "AWS_SECRET_ACCESS_KEY" "FOLIO_FILE_SECRET" "OTEL_EXPORTER_OTLP_HEADERS" -}}
{{- if eq .app "dispatcher" }}{{ $names = append $names "FOLIO_KEY_SECRET" }}{{ end -}}
{{- $generated := list "FOLIO_KEY_SECRET" "FOLIO_FILE_SECRET" -}}
{{- $required := list "DATABASE_URL" "FOLIO_KEY_SECRET" -}}
{{- range $name := $names }}
{{- $from := get $root.Values.secrets.from $name -}}
{{- if $from }}
- name: {{ $name }}
  valueFrom:
    secretKeyRef:
      name: {{ required (printf "secrets.from.%s.name" $name) $from.name | quote }}
      key: {{ required (printf "secrets.from.%s.key" $name) $from.key | quote }}
{{- else if $root.Values.secrets.existingSecret }}
- name: {{ $name }}
  valueFrom:
    secretKeyRef:
      name: {{ $root.Values.secrets.existingSecret | quote }}
      key: {{ $name }}
      optional: {{ not (has $name $required) }}
{{- else if or (get $root.Values.secrets.values $name) (has $name $generated) }}
- name: {{ $name }}
  valueFrom:
    secretKeyRef:
      name: {{ include "folio.fullname" $root | quote }}
      key: {{ $name }}
{{- end }}
{{- end }}
{{- end -}}

{{/* Checksums of what the pods read only at start, so that a change rolls them. */}}
{{- define "folio.checksums" -}}
checksum/config: {{ include (print .Template.BasePath "/configmap.yaml") . | sha256sum }}
{{- if not .Values.secrets.existingSecret }}
checksum/secret: {{ include (print .Template.BasePath "/secret.yaml") . | sha256sum }}
{{- end }}
{{- end -}}
