{{/* Names, labels and the pieces the api and the gateway share. */}}

{{- define "canopy.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The prefix of every object's name: the release name, with the chart's name unless it holds it already. */}}
{{- define "canopy.fullname" -}}
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

{{/*
Labels of every object. managed-by is Helm's: the runtime driver selects its own objects by
app.kubernetes.io/managed-by=canopy, which none of the chart's may carry.
*/}}
{{- define "canopy.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ include "canopy.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Selector labels of one component: (dict "root" $ "component" "api"). */}}
{{- define "canopy.selectorLabels" -}}
app.kubernetes.io/name: {{ include "canopy.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "canopy.image" -}}
{{- $repository := required "image.repository is required: the registry path of the Canopy image built from the repository's Dockerfile" .Values.image.repository -}}
{{- printf "%s:%s" $repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{- define "canopy.enginesNamespace" -}}
{{- default .Release.Namespace .Values.engines.namespace -}}
{{- end -}}

{{- define "canopy.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (printf "%s-api" (include "canopy.fullname" .)) .Values.serviceAccount.name -}}
{{- else -}}
{{- required "serviceAccount.name is required when serviceAccount.create is false" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "canopy.secretName" -}}
{{- default (include "canopy.fullname" .) .Values.secrets.existingSecret -}}
{{- end -}}

{{/* CANOPY_LOGIN_HOST: the name, with the Service's port when players reach it on another than 443. */}}
{{- define "canopy.loginHost" -}}
{{- if eq (int .Values.gateway.service.httpsPort) 443 -}}
{{- .Values.loginHost.name -}}
{{- else -}}
{{- printf "%s:%d" .Values.loginHost.name (int .Values.gateway.service.httpsPort) -}}
{{- end -}}
{{- end -}}

{{/* Where the login certificate is mounted in the gateway (the api only names it: its setup guide says "operator"). */}}
{{- define "canopy.loginTlsDir" -}}/etc/canopy/login-tls{{- end -}}

{{/*
The settings both processes read, as ConfigMap data. Production refuses a login host without a certificate
source, so the chart does too, before anything is installed.
*/}}
{{- define "canopy.sharedConfig" -}}
NODE_ENV: production
LOG_LEVEL: {{ .Values.config.logLevel | quote }}
DISCORD_CLIENT_ID: {{ required "config.discordClientId is required: the Discord application players sign in with (DISCORD_CLIENT_ID)" .Values.config.discordClientId | quote }}
CANOPY_PUBLIC_IP: {{ required "config.publicIp is required: the address game clients reach the gateway at (its load balancer IP or a DNS name)" .Values.config.publicIp | quote }}
{{- if .Values.loginHost.name }}
{{- if and .Values.loginHost.tls.secretName .Values.loginHost.acme.enabled }}
{{- fail "loginHost: set tls.secretName or acme.enabled, not both" }}
{{- end }}
{{- if not (or .Values.loginHost.tls.secretName .Values.loginHost.acme.enabled) }}
{{- fail "loginHost.name needs a certificate game clients trust: set loginHost.tls.secretName or loginHost.acme.enabled" }}
{{- end }}
CANOPY_LOGIN_HOST: {{ include "canopy.loginHost" . | quote }}
{{- if .Values.loginHost.tls.secretName }}
CANOPY_LOGIN_TLS_CERT: {{ printf "%s/tls.crt" (include "canopy.loginTlsDir" .) | quote }}
CANOPY_LOGIN_TLS_KEY: {{ printf "%s/tls.key" (include "canopy.loginTlsDir" .) | quote }}
{{- end }}
{{- if .Values.loginHost.acme.enabled }}
CANOPY_LOGIN_ACME: "on"
{{- with .Values.loginHost.acme.email }}
CANOPY_ACME_EMAIL: {{ . | quote }}
{{- end }}
{{- with .Values.loginHost.acme.directoryUrl }}
CANOPY_ACME_DIRECTORY_URL: {{ . | quote }}
{{- end }}
{{- end }}
{{- end }}
{{- if .Values.metrics.enabled }}
{{- $port := int .Values.metrics.port }}
{{- if has $port (list (int .Values.api.port) (int .Values.gateway.tlsPort) (int .Values.gateway.acmeHttpPort)) }}
{{- fail "metrics.port must differ from api.port, gateway.tlsPort and gateway.acmeHttpPort" }}
{{- end }}
CANOPY_METRICS_PORT: {{ $port | quote }}
{{- end }}
{{- range $name, $value := .Values.config.extraEnv }}
{{ $name }}: {{ $value | toString | quote }}
{{- end }}
{{- end -}}

{{/*
Environment entries read from the Secret: (dict "root" $ "required" (list ...) "optional" (list ...)), piped
through trim (it starts with a line break). The keys are the variables' names, so an existingSecret is made the
same way.
*/}}
{{- define "canopy.secretEnv" -}}
{{- $secret := include "canopy.secretName" .root -}}
{{- range .required }}
- name: {{ . }}
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: {{ . }}
{{- end }}
{{- range .optional }}
- name: {{ . }}
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: {{ . }}
      optional: true
{{- end }}
{{- end -}}

{{/* The pod's and the container's security: the image's node user (uid 1000), nothing else. */}}
{{- define "canopy.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 1000
runAsGroup: 1000
fsGroup: 1000
fsGroupChangePolicy: OnRootMismatch
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "canopy.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities:
  drop:
    - ALL
{{- end -}}
