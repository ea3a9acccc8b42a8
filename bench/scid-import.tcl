# SCID's side of bench/import.sh, run by tkscid (Debian scid):
#   tkscid bench/scid-import.tcl DATABASE FILE.pgn
# creates DATABASE (.si4, .sg4, .sn4) and imports every game of the PGN
# file into it, as Scid's own sc_import script does; prints "imported N".
set base [sc_base create [lindex $argv 0]]
set result [sc_base import $base [lindex $argv 1]]
puts "imported [lindex $result 0]"
sc_base close $base
exit 0
