#!/usr/bin/env bash
# Socket ioctls beyond strace_exact's fixture (tests/fixtures/
# strace_x_sockios.c, which compares every line of its modes with
# strace): a real program's SIOCGIFINDEX (Python's if_nametoindex) as
# strace prints it, and the JSON form of struct ifreq and SIOCGIFCONF.
. "$(dirname "$0")/lib.sh"
need_root
need_strace
F=$FIX/strace_x_sockios

py='import socket; print(socket.if_nametoindex("lo"))'
strace -e trace=ioctl -o "$TMP/py.ref" python3 -c "$py" > /dev/null
"$SONDE" strace -e trace=ioctl -o "$TMP/py.got" python3 -c "$py" > /dev/null
grep SIOCGIFINDEX "$TMP/py.ref" | sed 's/) *=/) =/' > "$TMP/py.ref.n"
grep SIOCGIFINDEX "$TMP/py.got" | sed 's/) *=/) =/' > "$TMP/py.got.n"
same "strace_sockios: python3's if_nametoindex as strace prints it" "$TMP/py.ref.n" "$TMP/py.got.n"

"$SONDE" strace --json -e trace=ioctl "$F" ifreq > /dev/null 2> "$TMP/ifreq.json"
"$SONDE" strace --json -e trace=ioctl "$F" ifconf > /dev/null 2> "$TMP/ifconf.json"
check "strace_sockios: --json: struct ifreq's members by name" python3 -c '
import json, sys
r = [json.loads(l)["argv"] for l in open(sys.argv[1]) if "\"ioctl\"" in l]
by = {}
for a in r:
    if isinstance(a.get("arg"), dict):
        by.setdefault(a["cmd"], a["arg"])
sys.exit(not (by["SIOCGIFFLAGS"]["ifr_flags"][:2] == ["IFF_UP", "IFF_LOOPBACK"]
              and by["SIOCGIFADDR"]["ifr_addr"]["addr"] == "127.0.0.1"
              and by["SIOCGIFMTU"]["ifr_mtu"] > 0
              and by["SIOCGIFNAME"] == {"ifr_ifindex": 1, "ifr_name": "lo"}))' "$TMP/ifreq.json"
check "strace_sockios: --json: SIOCGIFCONF's lengths in and out, its list" python3 -c '
import json, sys
r = [json.loads(l)["argv"]["arg"] for l in open(sys.argv[1]) if "SIOCGIFCONF" in l]
sys.exit(not (r[0]["ifc_len"] == 0 and r[0]["ifc_buf"] is None and r[0]["ifc_len_out"] % 40 == 0
              and r[1]["ifc_len"] == 640 and r[1]["ifc_buf"][0]["ifr_name"] == "lo"
              and len(r[1]["ifc_buf"]) * 40 == r[1]["ifc_len_out"]))' "$TMP/ifconf.json"
