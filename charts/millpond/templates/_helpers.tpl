{{/* The name every object of a pipeline carries: millpond-<pipeline>. */}}
{{- define "millpond.fullname" -}}
millpond-{{ . }}
{{- end -}}

{{/*
Labels of a pipeline's objects. The selector labels (name + instance) are the pipeline's alone, so a second pipeline's
Service or PodDisruptionBudget never selects this one's pods. Call with (dict "name" $name "root" $).
*/}}
{{- define "millpond.selectorLabels" -}}
app.kubernetes.io/name: millpond
app.kubernetes.io/instance: {{ .name }}
{{- end -}}

{{- define "millpond.labels" -}}
{{ include "millpond.selectorLabels" . }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: {{ .root.Release.Name }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- end -}}

{{/*
The maintenance Jobs' pods: another app.kubernetes.io/name, so the writer's Service and PodDisruptionBudget (which
select name=millpond) never take them in.
*/}}
{{- define "millpond.maintenanceLabels" -}}
app.kubernetes.io/name: millpond-maintenance
app.kubernetes.io/instance: {{ .name }}
app.kubernetes.io/part-of: {{ .root.Release.Name }}
{{- end -}}

{{/*
Variables whose values are secrets: they belong in the pipeline's Secret, never in a ConfigMap. The same rule as the
app's (config.SecretVariables; HelmChartTest holds the two together): a name containing one of these words, unless it
names where to find something (a URL, an endpoint, a file) rather than the thing itself.
*/}}
{{- define "millpond.secretVariable" -}}
(?i)(PASSWORD|PASSWD|SECRET|TOKEN|CREDENTIAL|API_KEY|PRIVATE_KEY|KEY_PEM|AUTH_HEADER_VALUE)
{{- end -}}
{{- define "millpond.notASecret" -}}
(?i)(_URL|_ENDPOINT|_ENDPOINT_URL|_FILE|_LOCATION)$
{{- end -}}

{{/*
Checks one pipeline's values and fails the render with one line naming what is wrong.
Call with (dict "name" $name "p" $p "root" $).
*/}}
{{- define "millpond.validate" -}}
{{- $name := .name -}}
{{- $p := .p -}}
{{- if not (regexMatch "^[a-z0-9]([-a-z0-9]{0,40}[a-z0-9])?$" $name) -}}
{{- fail (printf "pipelines: %q is not a DNS label of at most 42 characters (it names millpond-<pipeline> and the CronJobs)" $name) -}}
{{- end -}}
{{- range $field := list "topic" "table" "dataPath" "partitions" "replicas" -}}
{{- if not (hasKey $p $field) -}}
{{- fail (printf "pipelines.%s.%s is required" $name $field) -}}
{{- end -}}
{{- end -}}
{{- if lt (int $p.replicas) 1 -}}
{{- fail (printf "pipelines.%s.replicas must be at least 1, got %v" $name $p.replicas) -}}
{{- end -}}
{{- if gt (int $p.replicas) (int $p.partitions) -}}
{{- fail (printf "pipelines.%s.replicas (%v) exceeds partitions (%v): the pods past the partition count would get no partitions and never be ready" $name $p.replicas $p.partitions) -}}
{{- end -}}
{{- $env := merge (dict) ($p.env | default dict) .root.Values.env -}}
{{- range $k, $v := $env -}}
{{- if and (regexMatch (include "millpond.secretVariable" $) $k) (not (regexMatch (include "millpond.notASecret" $) $k)) -}}
{{- fail (printf "pipelines.%s: %s is a secret; put it in the Secret %s, not in env (which renders into a ConfigMap)" $name $k (include "millpond.secretName" (dict "name" $name "p" $p))) -}}
{{- end -}}
{{- if has $k (list "REPLICA_COUNT" "POD_NAME" "JAVA_OPTS" "KAFKA_TOPIC" "DUCKLAKE_TABLE" "DUCKLAKE_DATA_PATH") -}}
{{- fail (printf "pipelines.%s: %s is rendered by the chart (from replicas, the pod name, javaOpts, topic, table, dataPath); do not set it in env" $name $k) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "millpond.secretName" -}}
{{- .p.secretName | default (printf "millpond-%s-secrets" .name) -}}
{{- end -}}

{{/* Pod-level security: non-root, the runtime's default seccomp profile, no service account token unless one is bound. */}}
{{- define "millpond.podSecurity" -}}
{{- if .Values.serviceAccountName -}}
serviceAccountName: {{ .Values.serviceAccountName }}
automountServiceAccountToken: true
{{- else -}}
automountServiceAccountToken: false
{{- end }}
securityContext:
  runAsNonRoot: true
  runAsUser: 1001
  {{- if .Values.secrets.asFiles }}
  # The mounted Secret's files are group-readable by this group only (defaultMode 0440).
  fsGroup: 1001
  {{- end }}
  seccompProfile:
    type: RuntimeDefault
{{- end -}}

{{/*
The variables millpond reads from <NAME>_FILE (config.SecretFiles; HelmChartTest holds the two together): these, and
every KAFKA_CONSUMER_* one whose name says it is a secret.
*/}}
{{- define "millpond.fileSecrets" -}}
DUCKLAKE_RDS_PASSWORD DUCKDB_S3_ACCESS_KEY_ID DUCKDB_S3_SECRET_ACCESS_KEY HOGLAKE_S3_ACCESS_KEY HOGLAKE_S3_SECRET_KEY MILLPOND_INCLUDE_VALUES_AUTH_TOKEN POSTHOG_PROJECT_TOKEN
{{- end -}}

{{/* With secrets.asFiles: K_FILE=<mountPath>/K for each key of the Secret; fails on a key millpond cannot read so. */}}
{{- define "millpond.secretFileEnv" -}}
{{- if .Values.secrets.asFiles }}
{{- $accepted := splitList " " (include "millpond.fileSecrets" .) }}
{{- range $key := .Values.secrets.keys }}
{{- $secret := and (regexMatch (include "millpond.secretVariable" $) $key) (not (regexMatch (include "millpond.notASecret" $) $key)) }}
{{- if not (or (has $key $accepted) (and (hasPrefix "KAFKA_CONSUMER_" $key) $secret)) }}
{{- fail (printf "secrets.keys: millpond does not read %s from a file (%s_FILE); see docs/configuration.md, \"Secrets from files\"" $key $key) }}
{{- end }}
- name: {{ $key }}_FILE
  value: {{ printf "%s/%s" (trimSuffix "/" $.Values.secrets.mountPath) $key | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{/* The pipeline's Secret as environment variables (the default), or nothing when it is mounted as files. */}}
{{- define "millpond.secretEnvFrom" -}}
{{- if not .root.Values.secrets.asFiles }}
- secretRef:
    name: {{ include "millpond.secretName" (dict "name" .name "p" .p) }}
{{- end }}
{{- end -}}

{{- define "millpond.secretVolumeMount" -}}
{{- if .Values.secrets.asFiles }}
- name: secrets
  mountPath: {{ .Values.secrets.mountPath }}
  readOnly: true
{{- end }}
{{- end -}}

{{- define "millpond.secretVolume" -}}
{{- if .root.Values.secrets.asFiles }}
- name: secrets
  secret:
    secretName: {{ include "millpond.secretName" (dict "name" .name "p" .p) }}
    defaultMode: 0440
{{- end }}
{{- end -}}

{{- define "millpond.containerSecurity" -}}
securityContext:
  allowPrivilegeEscalation: false
  readOnlyRootFilesystem: true
  capabilities:
    drop: ["ALL"]
{{- end -}}
