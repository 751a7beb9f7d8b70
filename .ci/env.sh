# Everything cardlab writes stays inside the project folder unless the caller already
# pointed a location elsewhere (shared servers): every export keeps an existing value.
# Sourced by run.sh with ROOT set to the project folder.
: "${ROOT:?ROOT must be set}"
export PREFECT_HOME="${PREFECT_HOME:-$ROOT/.prefect}"
export PREFECT_API_DATABASE_CONNECTION_URL="${PREFECT_API_DATABASE_CONNECTION_URL:-sqlite+aiosqlite:///$PREFECT_HOME/prefect.db}"
export PREFECT_SERVER_ANALYTICS_ENABLED="${PREFECT_SERVER_ANALYTICS_ENABLED:-false}"
export PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS="${PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS:-120}"
export DO_NOT_TRACK="${DO_NOT_TRACK:-1}"
export MLFLOW_DISABLE_TELEMETRY="${MLFLOW_DISABLE_TELEMETRY:-true}"
export MLFLOW_TRACKING_URI="${MLFLOW_TRACKING_URI:-sqlite:///$ROOT/.mlflow/mlflow.db}"
export MLFLOW_SERVER_ENABLE_JOB_EXECUTION="${MLFLOW_SERVER_ENABLE_JOB_EXECUTION:-false}"
export CARDLAB_HOME="${CARDLAB_HOME:-$ROOT}"
export NUMBA_CACHE_DIR="${NUMBA_CACHE_DIR:-$ROOT/.cache/numba}"
export DASK_TEMPORARY_DIRECTORY="${DASK_TEMPORARY_DIRECTORY:-$ROOT/.cache/dask}"
# one BLAS thread a process, as flows/settings.py sets it (cardlab's parallelism is its workers)
export OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-1}" MKL_NUM_THREADS="${MKL_NUM_THREADS:-1}"
export UV_CACHE_DIR="${UV_CACHE_DIR:-$ROOT/.cache/uv}"
export UV_PYTHON_DOWNLOADS=never UV_COMPILE_BYTECODE=1
mkdir -p "$PREFECT_HOME" "$ROOT/.mlflow" "$ROOT/.cache"
