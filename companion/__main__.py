from companion.ops.cli import main

main()
