from prdigest.cli.main import main

main()
