# alias expansion as bash does it (a script: expand_aliases must be turned on)
shopt -s expand_aliases
alias ll='echo LL'
ll a b
alias ls='ls -d'
mkdir -p adir; ls adir
alias sudo='sudo '; alias sudo2='echo S: '
sudo2 ll x
alias e=echo; e "quoted" 'x'; \e escaped 2>&1 | head -1
"ll" 2>&1 | sed 's/.*: //'
if true; then ll in-if; fi
f() { ll in-func; }; f
for i in 1; do ll loop; done
x=$(ll in-sub); echo "$x"
alias g='echo one; echo two'; g
alias rec1=rec2 rec2=rec1; rec1 2>&1 | sed 's/.*: //'
alias nl2='echo a |'; nl2 cat
alias x=y; unalias x; x 2>&1 | sed 's/.*: //'
echo ll
ll; alias -p | head -2
alias ll2='ll extra'; ll2
alias lsx='ls -d adir' ; lsx
a=1 ll pre
y="$(ll dq)"; echo "$y"; z=${u:-$(ll br)}; echo "$z"
echo $(if true; then ll nested; fi)
cat <(ll procsub)
case x in x) ll incase;; esac
while ll once; do break; done
{ ll brace; }
( ll subsh )
! ll bang
ll | cat
true && ll andand

