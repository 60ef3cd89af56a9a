from tests.fuzz.scripts import main

main()
