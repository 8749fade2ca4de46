{{/* The release's name for its objects, at most 63 characters (DNS label). */}}
{{- define "sluice.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "sluice.controller" -}}{{ include "sluice.fullname" . }}-controller{{- end -}}
{{- define "sluice.dbd" -}}{{ include "sluice.fullname" . }}-dbd{{- end -}}
{{- define "sluice.restd" -}}{{ include "sluice.fullname" . }}-restd{{- end -}}

{{/* The controller's stable address: its StatefulSet pod behind the headless Service. */}}
{{- define "sluice.controllerHost" -}}
{{ include "sluice.controller" . }}-0.{{ include "sluice.controller" . }}.{{ .Release.Namespace }}.svc.{{ .Values.clusterDomain }}
{{- end -}}

{{- define "sluice.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Selector labels of one component (controller, noded, dbd, login). */}}
{{- define "sluice.selector" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "sluice.image" -}}
{{ .root.Values.image.repository }}:{{ index .root.Values.image.tags .component }}
{{- end -}}

{{- define "sluice.keySecret" -}}
{{- if .Values.auth.existingSecret -}}{{ .Values.auth.existingSecret }}{{- else -}}{{ include "sluice.fullname" . }}-key{{- end -}}
{{- end -}}

{{- define "sluice.dbdSecret" -}}
{{- if .Values.dbd.storage.existingSecret -}}{{ .Values.dbd.storage.existingSecret }}{{- else -}}{{ include "sluice.dbd" . }}-storage{{- end -}}
{{- end -}}

{{/*
/etc/slurm as every daemon sees it: the ConfigMap's files, the cluster key and, with the REST
daemon, the JWT key. The keys are
0440: readable by the slurm group (fsGroup) for the controller, dbd and REST daemon, never by others, which
the daemons refuse (docs/security.md).
*/}}
{{- define "sluice.etcVolume" -}}
- name: etc-slurm
  projected:
    sources:
      - configMap:
          name: {{ include "sluice.fullname" . }}-config
      - secret:
          name: {{ include "sluice.keySecret" . }}
          items:
            - key: slurm.key
              path: slurm.key
              mode: 0440
            {{- if .Values.restd.enabled }}
            - key: jwt_hs256.key
              path: jwt_hs256.key
              mode: 0440
            {{- end }}
{{- end -}}

{{/* Prometheus scrape annotations for a pod serving metrics on port. */}}
{{- define "sluice.scrape" -}}
{{- if .root.Values.metrics.enabled }}
prometheus.io/scrape: "true"
prometheus.io/port: {{ .port | quote }}
prometheus.io/path: /metrics
{{- end }}
{{- end -}}
