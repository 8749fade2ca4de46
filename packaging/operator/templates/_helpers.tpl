{{- define "sluice-operator.name" -}}
{{- printf "%s" .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "sluice-operator.labels" -}}
app.kubernetes.io/name: sluice-operator
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "sluice-operator.selector" -}}
app.kubernetes.io/name: sluice-operator
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}
