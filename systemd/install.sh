#!/bin/sh
# Installs the Oasis Stud Poker kiosk on a Raspberry Pi OS (Bookworm) cabinet, so that it
# boots straight into the game: the system user, its data directory, the configuration,
# the link agent's own user and directory (for a cabinet linked to a floor's hub),
# the package in its own virtual environment, the systemd unit, and the console handed
# over from the login prompt to the game. docs/cabinet.md walks through it.
#
# Running it again changes nothing that is already in place; an existing configuration
# is never overwritten. Each step prints what it does:
#   + command    run now (with --dry-run: only printed)
#   = thing      already in place, nothing done
#   ! command    with --prefix: a change to the running system (users, groups, ownership,
#                packages from apt or pip, the service manager), printed and not made
set -eu

usage() {
	cat <<'EOF'
usage: sudo systemd/install.sh [--wheel FILE | --venv DIR] [--no-apt]
       systemd/install.sh --dry-run [...]
       systemd/install.sh --prefix DIR [...]

  --wheel FILE  install this wheel (maturin build --release) into /opt/oasis-kiosk/venv;
                without it the checkout is built there (needs the Rust toolchain)
  --venv DIR    run the kiosk from an existing environment instead, such as a checkout's
                .venv made by `make build` (not under /home, /root or /tmp: the service
                cannot see them)
  --no-apt      do not install the system packages (python3-venv, the graphics libraries)
  --dry-run     print every command instead of running it; needs no root
  --prefix DIR  install under DIR as if it were / (tests): files and unit links are made
                there (--venv names a directory under DIR), changes to the running
                system and downloads are only printed; needs no root
EOF
}

fail() {
	printf 'install.sh: %s; nothing was changed\n' "$*" >&2
	exit 2
}

SOURCE=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=""
DRY_RUN=0
WHEEL=""
VENV=""
APT=1
while [ $# -gt 0 ]; do
	case $1 in
	--dry-run) DRY_RUN=1 ;;
	--no-apt) APT=0 ;;
	--prefix | --wheel | --venv)
		[ $# -ge 2 ] || fail "$1 needs a value"
		case $1 in
		--prefix) PREFIX=$2 ;;
		--wheel) WHEEL=$2 ;;
		--venv) VENV=$2 ;;
		esac
		shift
		;;
	-h | --help)
		usage
		exit 0
		;;
	*)
		usage >&2
		fail "unknown argument $1"
		;;
	esac
	shift
done

USER_NAME=oasis
DATA_DIR=/var/lib/oasis-kiosk
# The link agent of a linked cabinet (oasis-kiosk-link.service, enabled by hand): a user of
# its own, who alone reads the hub's credentials, may read the books through the group
# oasis, and writes only its own directory, which passes that group on to its file.
LINK_USER=oasis-link
LINK_DIR=/var/lib/oasis-kiosk-link
CONFIG_DIR=/etc/oasis-kiosk
CONFIG=$CONFIG_DIR/config.toml
APP_DIR=/opt/oasis-kiosk
UNIT=oasis-kiosk.service
UNIT_DIR=/etc/systemd/system
SHIPPED_KIOSK=/opt/oasis-kiosk/venv/bin/oasis-kiosk
# The display and touchscreen (video, render, input), the GPIO chips (gpio), the bill
# validator's serial port (dialout), the sound card (audio): the unit's SupplementaryGroups.
DEVICE_GROUPS="video render input gpio dialout audio"
# SDL's kmsdrm driver loads libdrm, GBM and EGL/GLES from the system, Mesa's drivers with them.
APT_PACKAGES="python3-venv libdrm2 libgbm1 libegl1 libgles2 libgl1-mesa-dri"
DOCS="cabinet.md operator.md troubleshooting.md terminal.md screen.md"

# Everything is checked before anything changes.
if [ -n "$PREFIX" ]; then
	case $PREFIX in /*) ;; *) PREFIX=$(pwd)/$PREFIX ;; esac
	PREFIX=${PREFIX%/}
	[ -n "$PREFIX" ] || fail "--prefix / is the system itself: leave --prefix out"
fi
if [ "$DRY_RUN" = 0 ] && [ -z "$PREFIX" ] && [ "$(id -u)" != 0 ]; then
	fail "run it as root (sudo), or with --dry-run or --prefix DIR"
fi
[ -z "$WHEEL" ] || [ -z "$VENV" ] || fail "--wheel and --venv exclude each other"
if [ -n "$WHEEL" ]; then
	case $WHEEL in *.whl) ;; *) fail "$WHEEL is not a wheel (*.whl)" ;; esac
	[ -f "$WHEEL" ] || fail "$WHEEL: no such file"
	WHEEL=$(cd "$(dirname "$WHEEL")" && pwd)/$(basename "$WHEEL")
fi
if [ -n "$VENV" ]; then
	case $VENV in /*) ;; *) VENV=$(pwd)/$VENV ;; esac
	VENV=${VENV%/}
	case $VENV in
	/home/* | /root/* | /run/user/* | /tmp/* | /var/tmp/*)
		fail "$VENV: the service cannot see it (ProtectHome, PrivateTmp); move the checkout, e.g. to /opt/oasis-kiosk/src"
		;;
	*[!A-Za-z0-9_./-]*) fail "$VENV: a path of letters, digits and ._/- only (it goes into ExecStart=)" ;;
	esac
	[ -x "$PREFIX$VENV/bin/oasis-kiosk" ] || fail "$PREFIX$VENV/bin/oasis-kiosk: not there (make build first)"
	KIOSK=$VENV/bin/oasis-kiosk
else
	VENV=$APP_DIR/venv
	KIOSK=$SHIPPED_KIOSK
	if [ -z "$WHEEL" ] && [ "$DRY_RUN" = 0 ] && [ -z "$PREFIX" ] && ! command -v cargo >/dev/null 2>&1; then
		fail "building the checkout needs the Rust toolchain (cargo, from rustup); or pass --wheel FILE"
	fi
fi
for shipped in "systemd/$UNIT" systemd/config.example.toml $(printf ' docs/%s' $DOCS); do
	[ -f "$SOURCE/$shipped" ] || fail "$SOURCE/$shipped: missing from the checkout"
done
python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null ||
	fail "the kiosk needs Python 3.11 or later as python3"

# A command, quoted so that it can be pasted into a shell.
quoted() {
	line=""
	for word in "$@"; do
		case $word in
		"" | *[!A-Za-z0-9_./:=@%+,-]*) word="'$(printf '%s' "$word" | sed "s/'/'\\\\''/g")'" ;;
		esac
		line="$line${line:+ }$word"
	done
	printf '%s' "$line"
}

# A change under the root (DIR with --prefix): printed, then made unless it is a dry run.
change() {
	printf '+ %s\n' "$(quoted "$@")"
	[ "$DRY_RUN" = 1 ] || "$@"
}

# A change to the running system, or a download: only printed with --prefix.
system() {
	if [ -n "$PREFIX" ]; then
		printf '! %s\n' "$(quoted "$@")"
	else
		change "$@"
	fi
}

same() {
	printf '= %s\n' "$*"
}

# Writes TEXT to FILE (a stamp), printed like any other change.
put() {
	printf "+ printf '%%s\\\\n' %s > %s\n" "$(quoted "$1")" "$(quoted "$2")"
	[ "$DRY_RUN" = 1 ] || printf '%s\n' "$1" >"$2"
}

mode_of() {
	stat -c %a "$1" 2>/dev/null || true
}

# A system directory (/etc, /opt...): made if it is missing (under --prefix), never changed.
ensure_base_dir() {
	if [ -d "$PREFIX$1" ]; then
		same "$1"
	else
		change install -d -m 755 "$PREFIX$1"
	fi
}

# One of the kiosk's own directories: made, or given its mode.
ensure_dir() { # PATH MODE
	if [ -d "$PREFIX$1" ] && [ "$(mode_of "$PREFIX$1")" = "$2" ]; then
		same "$1 (mode $2)"
	else
		change install -d -m "$2" "$PREFIX$1"
	fi
}

ensure_owner() { # PATH USER:GROUP
	if [ -z "$PREFIX" ] && [ "$(stat -c %U:%G "$1" 2>/dev/null || true)" = "$2" ]; then
		same "$1 owned by $2"
	else
		system chown "$2" "$PREFIX$1"
	fi
}

CHANGED=0
ensure_file() { # SOURCE PATH MODE: sets CHANGED
	if [ -f "$PREFIX$2" ] && cmp -s "$1" "$PREFIX$2" && [ "$(mode_of "$PREFIX$2")" = "$3" ]; then
		same "$2"
		CHANGED=0
	else
		change install -m "$3" "$1" "$PREFIX$2"
		CHANGED=1
	fi
}

systemctl_change() {
	if [ -n "$PREFIX" ]; then
		change systemctl --root="$PREFIX" "$@"
	else
		change systemctl "$@"
	fi
}

unit_state() {
	if [ -n "$PREFIX" ]; then
		systemctl --root="$PREFIX" is-enabled "$1" 2>/dev/null || true
	else
		systemctl is-enabled "$1" 2>/dev/null || true
	fi
}

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

echo "# system packages"
if [ "$APT" = 0 ]; then
	same "system packages left alone (--no-apt)"
else
	missing=""
	for package in $APT_PACKAGES; do
		if [ -n "$PREFIX" ] || ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed"; then
			missing="$missing $package"
		fi
	done
	if [ -n "$missing" ]; then
		# shellcheck disable=SC2086 # one word per package
		system apt-get install -y --no-install-recommends $missing
	else
		same "packages$(printf ' %s' $APT_PACKAGES)"
	fi
fi

echo "# the kiosk's user: no login, its home the data directory"
for group in $DEVICE_GROUPS; do
	if [ -z "$PREFIX" ] && getent group "$group" >/dev/null; then
		same "group $group"
	else
		# Raspberry Pi OS has them all; one that is missing would stop the unit from starting.
		system groupadd --system "$group"
	fi
done
if [ -z "$PREFIX" ] && getent passwd "$USER_NAME" >/dev/null; then
	same "user $USER_NAME"
else
	system useradd --system --user-group --home-dir "$DATA_DIR" --no-create-home \
		--shell /usr/sbin/nologin --comment "Oasis Stud Poker kiosk" "$USER_NAME"
fi
for group in $DEVICE_GROUPS; do
	if [ -z "$PREFIX" ] && id -nG "$USER_NAME" 2>/dev/null | tr ' ' '\n' | grep -qx "$group"; then
		same "$USER_NAME in group $group"
	else
		system usermod --append --groups "$group" "$USER_NAME"
	fi
done

echo "# the link agent's user: reads the books through the group $USER_NAME, never writes them"
if [ -z "$PREFIX" ] && getent passwd "$LINK_USER" >/dev/null; then
	same "user $LINK_USER"
else
	system useradd --system --user-group --home-dir "$LINK_DIR" --no-create-home \
		--shell /usr/sbin/nologin --comment "Oasis Stud Poker kiosk: link agent" "$LINK_USER"
fi
if [ -z "$PREFIX" ] && id -nG "$LINK_USER" 2>/dev/null | tr ' ' '\n' | grep -qx "$USER_NAME"; then
	same "$LINK_USER in group $USER_NAME"
else
	system usermod --append --groups "$USER_NAME" "$LINK_USER"
fi

echo "# the data directory and the configuration"
ensure_base_dir /var
ensure_base_dir /var/lib
ensure_dir "$DATA_DIR" 750
ensure_owner "$DATA_DIR" "$USER_NAME:$USER_NAME"
ensure_dir "$LINK_DIR" 2750
ensure_owner "$LINK_DIR" "$LINK_USER:$USER_NAME"
ensure_base_dir /etc
ensure_dir "$CONFIG_DIR" 755
if [ -e "$PREFIX$CONFIG" ]; then
	same "$CONFIG kept as it is"
else
	change install -m 644 "$SOURCE/systemd/config.example.toml" "$PREFIX$CONFIG"
fi

echo "# the package"
ensure_base_dir /opt
ensure_dir "$APP_DIR" 755
ensure_dir "$APP_DIR/docs" 755
for doc in $DOCS; do
	ensure_file "$SOURCE/docs/$doc" "$APP_DIR/docs/$doc" 644
done
if [ "$KIOSK" != "$SHIPPED_KIOSK" ]; then
	same "the kiosk runs from $VENV"
	if "$PREFIX$VENV/bin/python" -c 'import lgpio' 2>/dev/null; then
		same "lgpio in $VENV"
	else
		# The unit's pin factory; the checkout's own environment lacks it.
		system "$PREFIX$VENV/bin/pip" install --quiet lgpio
	fi
else
	if [ -x "$PREFIX$VENV/bin/python" ]; then
		same "$VENV"
	else
		change python3 -m venv "$PREFIX$VENV"
	fi
	if [ -n "$WHEEL" ]; then
		package=$WHEEL
		identity="wheel $(sha256sum "$WHEEL" | cut -d ' ' -f 1)"
	else
		package=$SOURCE
		identity=""
		if commit=$(git -C "$SOURCE" rev-parse HEAD 2>/dev/null); then
			identity="source $commit $( (git -C "$SOURCE" diff HEAD && git -C "$SOURCE" status --porcelain) | sha256sum | cut -d ' ' -f 1)"
		fi
	fi
	stamp=$APP_DIR/installed-from
	if [ -n "$identity" ] && [ -f "$PREFIX$stamp" ] && [ "$(cat "$PREFIX$stamp")" = "$identity" ]; then
		same "the package ($identity)"
	else
		# The cabinet extra brings lgpio, the unit's pin factory; the floor extra psycopg, which
		# the link agent (oasis-kiosk-link.service) of a linked cabinet needs to reach its hub.
		system "$PREFIX$VENV/bin/pip" install --quiet --upgrade "$package[cabinet,floor]"
		if [ -z "$PREFIX" ]; then
			put "$identity" "$stamp"
		fi
	fi
fi

echo "# the books"
if [ -z "$PREFIX" ] && [ -e "$DATA_DIR/kiosk.db.books" ]; then
	same "books in $DATA_DIR"
	# Books made while the kiosk's files were its alone (UMask=0077): its group, the link
	# agent, may read them now (SQLite gives their -wal and -shm the database's mode).
	if [ "$(mode_of "$DATA_DIR/kiosk.db")" = 600 ]; then
		change chmod 640 "$DATA_DIR/kiosk.db"
	else
		same "books readable by the group $USER_NAME"
	fi
else
	# Made once, as the kiosk's user, so that only it reads the seal key; init never makes
	# books where there are (or were) books: lost ones stay lost until the operator decides.
	system runuser -u "$USER_NAME" -- "$KIOSK" init --if-missing --config "$CONFIG"
fi

echo "# the systemd unit"
sed -e "s#^ExecStart=$SHIPPED_KIOSK #ExecStart=$KIOSK #" "$SOURCE/systemd/$UNIT" >"$WORK/$UNIT"
ensure_base_dir /etc/systemd
ensure_base_dir "$UNIT_DIR"
ensure_file "$WORK/$UNIT" "$UNIT_DIR/$UNIT" 644
if [ "$CHANGED" = 1 ]; then
	system systemctl daemon-reload
fi
if [ "$(unit_state "$UNIT")" = enabled ]; then
	same "$UNIT enabled"
else
	systemctl_change enable "$UNIT"
fi
# The console is the game's: no login prompt on tty1 (use another console or ssh).
getty=$(unit_state getty@tty1.service)
case $getty in
masked) same "getty@tty1.service masked" ;;
*)
	if [ "$getty" = enabled ]; then
		systemctl_change disable getty@tty1.service
	fi
	systemctl_change mask getty@tty1.service
	;;
esac

if [ "$DRY_RUN" = 1 ]; then
	echo "# dry run: nothing was changed"
elif [ -n "$PREFIX" ]; then
	echo "# installed under $PREFIX; the ! lines are what a real install also does"
else
	echo "# installed: the kiosk starts at the next boot, or now with: systemctl start $UNIT"
	echo "# (it takes over tty1; after an upgrade: systemctl restart $UNIT)"
fi
