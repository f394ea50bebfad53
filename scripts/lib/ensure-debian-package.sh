# Sourced by scripts/ensure-*.sh: find a binary, or install the Debian package that ships it.
#
#   ensure_debian_package <binary> <package> <env var> <what>
#
# Prints the path of a usable <binary> on stdout; progress and advice go to stderr, prefixed
# with [<binary>]. Lookup order: $<env var> (when set it must be usable), then <binary> on PATH,
# then /usr/bin/<binary> and /usr/sbin/<binary>. When none is found and we run as root with apt-get, installs <package>
# (apt-get update, then apt-get install). "Usable" means executable and answering --version.
# <what> names the binary in messages ("Chromium", "redis-server"). Returns non-zero on failure.
# EDP_VERSION_FLAG replaces --version for binaries that answer another flag (HAProxy: -v).

_edp_usable() { [[ -x "$1" ]] && "$1" "${EDP_VERSION_FLAG:---version}" >/dev/null 2>&1; }

# The binary on PATH, else /usr/bin/<binary>, when usable; nothing otherwise.
_edp_find() {
  local binary="$1" on_path
  if on_path="$(command -v "${binary}" 2>/dev/null)" && _edp_usable "${on_path}"; then echo "${on_path}"; return 0; fi
  if _edp_usable "/usr/bin/${binary}"; then echo "/usr/bin/${binary}"; return 0; fi
  if _edp_usable "/usr/sbin/${binary}"; then echo "/usr/sbin/${binary}"; return 0; fi
  return 1
}

ensure_debian_package() {
  local binary="$1" package="$2" env_var="$3" what="$4"
  local say_prefix="[${binary}]" configured="${!env_var:-}" found started log
  say() { printf '%s %s\n' "${say_prefix}" "$*" >&2; }

  if [[ -n "${configured}" ]]; then
    if _edp_usable "${configured}"; then echo "${configured}"; return 0; fi
    say "${env_var}=${configured} is not an executable ${what}"; return 1
  fi
  if found="$(_edp_find "${binary}")"; then echo "${found}"; return 0; fi

  if [[ "$(id -u)" != "0" ]]; then
    say "No ${binary} found, and installing one needs root."
    say "Install Debian's package (sudo apt-get install ${package}), put ${binary} on PATH,"
    say "or set ${env_var} to the path of a ${what} binary."
    return 1
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    say "No ${binary} found and no apt-get to install one; set ${env_var} to a ${what} binary."
    return 1
  fi

  say "Installing Debian's ${package} package (apt-get update, apt-get install -y ${package})."
  started=$(date +%s)
  log="$(mktemp)"
  if ! { DEBIAN_FRONTEND=noninteractive apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${package}"; } >"${log}" 2>&1; then
    cat "${log}" >&2; rm -f "${log}"
    say "apt-get could not install ${package}."
    return 1
  fi
  rm -f "${log}"
  if found="$(_edp_find "${binary}")"; then
    say "Installed in $(( $(date +%s) - started ))s: ${found} ($("${found}" "${EDP_VERSION_FLAG:---version}" | head -n1))"
    echo "${found}"; return 0
  fi
  say "apt-get installed ${package} but no ${binary} binary was found afterwards."
  return 1
}
