"""The docker CLI and Compose as the docker backend and the docker database both drive
them: Compose's command lines, the other machines' engines, containers and images."""
