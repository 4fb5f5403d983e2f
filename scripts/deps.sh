#!/usr/bin/env bash
# Installs the Debian packages sonde needs to build, test and benchmark,
# only those missing; safe to run again. Needs root (or sudo) and apt.
set -eu
pkgs=(make gcc clang llvm bpftool libbpf-dev libelf-dev libdw-dev libiberty-dev zlib1g-dev
      libzstd-dev pkg-config strace linux-perf bpftrace libclang-rt-14-dev
      hyperfine fio python3 util-linux)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "sonde: installing missing packages: ${missing[*]}"
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
